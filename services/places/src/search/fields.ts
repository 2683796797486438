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

/** `fields`: a comma list of known names, each once; none given means every Pro field. */
export function parseFields(raw: string | undefined): ReadonlySet<FieldName> {
  if (raw === undefined) return new Set(PRO_FIELDS);
  const names = raw.split(',').map((f) => f.trim());
  const unknown = names.filter((n) => !KNOWN.has(n));
  if (unknown.length > 0) throw unexpectedFields(unknown.map((n) => n.slice(0, 40)).slice(0, 10));
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
