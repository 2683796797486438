import { unexpectedFields } from '../errors.ts';

/** Every field of the 2025-06-17 Place. Those the store has no data for are accepted and simply absent. */
export const PRO_FIELDS = [
  'fsq_place_id',
  'name',
  'categories',
  'location',
  'latitude',
  'longitude',
  'distance',
  'tel',
  'email',
  'website',
  'social_media',
  'link',
  'date_closed',
  'placemaker_url',
  'chains',
  'store_id',
  'related_places',
  'extended_location',
  'unresolved_flags',
] as const;

export const PREMIUM_FIELDS = [
  'attributes',
  'description',
  'hours',
  'hours_popular',
  'menu',
  'photos',
  'place_actions',
  'popularity',
  'price',
  'rating',
  'stats',
  'tastes',
  'tips',
  'veracity_rating',
  'date_created',
  'date_refreshed',
] as const;

export type FieldName = (typeof PRO_FIELDS)[number] | (typeof PREMIUM_FIELDS)[number];
const KNOWN = new Set<string>([...PRO_FIELDS, ...PREMIUM_FIELDS]);

/** A comma list of known field names (spaces around a name allowed): the `fields` parameter's pattern. */
export const FIELDS_PATTERN = `^\\s*(?:${[...KNOWN].join('|')})\\s*(?:,\\s*(?:${[...KNOWN].join('|')})\\s*)*$`;

/** The real service's error for names that are not fields, or undefined when every name is one. */
export function unexpectedFieldsIn(raw: string) {
  const unknown = raw
    .split(',')
    .map((f) => f.trim())
    .filter((n) => !KNOWN.has(n));
  return unknown.length > 0 ? unexpectedFields(unknown.map((n) => n.slice(0, 40)).slice(0, 10)) : undefined;
}

/** `fields`: a comma list of known names, each once; none given means every Pro field. */
export function parseFields(raw: string | undefined): ReadonlySet<FieldName> {
  if (raw === undefined) return new Set(PRO_FIELDS);
  const unexpected = unexpectedFieldsIn(raw);
  if (unexpected) throw unexpected;
  const names = raw.split(',').map((f) => f.trim());
  const seen = new Set<FieldName>();
  const repeated: string[] = [];
  for (const n of names as FieldName[]) {
    if (seen.has(n)) repeated.push(n);
    seen.add(n);
  }
  if (repeated.length > 0) {
    throw unexpectedFields(repeated).with({
      message: `Unexpected field(s): '${repeated.join(',')}' provided. Each field may be named once in fields.`,
    });
  }
  return seen;
}
