import type { HoursEntry } from '../data/hours.ts';
import type { PlaceRecord } from '../data/place-record.ts';
import type { Reference } from '../reference/reference.ts';
import { timeZoneAt } from '../reference/time-zone.ts';
import type { PlaceRow } from '../store/places-read.ts';
import type { Change, Json } from './types.ts';

/** The place fields an edit can change, by their stored names. */
export const EDITABLE_FIELDS = [
  'name',
  'latitude',
  'longitude',
  'address',
  'locality',
  'region',
  'postcode',
  'country',
  'tel',
  'website',
  'email',
  'description',
  'hours',
  'facebook_id',
  'instagram',
  'twitter',
  'fsq_category_ids',
  'fsq_chain_ids',
  'date_closed',
] as const;
export type EditableField = (typeof EDITABLE_FIELDS)[number];
const EDITABLE = new Set<string>(EDITABLE_FIELDS);

/** Pseudo-fields: a place taken out by a removal (`removed`) or a merge (`merged_into`). */
export const REMOVED = 'removed';
export const MERGED_INTO = 'merged_into';

export const isEditable = (field: string): field is EditableField => EDITABLE.has(field);

/** A field's current value, in the form edits record it (empty lists and hours as null). */
export function fieldValue(row: PlaceRow, field: EditableField): Json {
  const value = row[field];
  if (field === 'hours') {
    const hours = value as HoursEntry[] | null;
    return hours && hours.length > 0
      ? hours.map((h) => ({ day: h.day, open: h.open, close: h.close }))
      : null;
  }
  if (Array.isArray(value)) return [...(value as string[])];
  return (value ?? null) as Json;
}

/** Key order and numeric forms aside, the same JSON value. */
export function sameValue(a: Json, b: Json): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k] ?? null)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The stored record of a row, ready to be written back with changes. */
export function recordOf(row: PlaceRow): PlaceRecord & { description: string | null } {
  return {
    fsq_place_id: row.fsq_place_id,
    name: row.name,
    latitude: row.latitude,
    longitude: row.longitude,
    address: row.address,
    locality: row.locality,
    region: row.region,
    postcode: row.postcode,
    admin_region: row.admin_region,
    post_town: row.post_town,
    po_box: row.po_box,
    country: row.country,
    date_created: row.date_created,
    date_refreshed: row.date_refreshed,
    date_closed: row.date_closed,
    tel: row.tel,
    website: row.website,
    email: row.email,
    facebook_id: row.facebook_id,
    instagram: row.instagram,
    twitter: row.twitter,
    fsq_category_ids: [...row.fsq_category_ids],
    fsq_category_labels: [...row.fsq_category_labels],
    placemaker_url: row.placemaker_url,
    unresolved_flags: [...row.unresolved_flags],
    fsq_chain_ids: [...row.fsq_chain_ids],
    price: row.price,
    rating: row.rating,
    popularity: row.popularity,
    hours: row.hours,
    time_zone: row.time_zone,
    description: row.description,
  };
}

/** Sets one field of a record, with what depends on it (category labels, the time zone). */
export function setField(
  record: PlaceRecord & { description: string | null },
  field: EditableField,
  value: Json,
  reference: Reference,
): void {
  switch (field) {
    case 'latitude':
    case 'longitude':
      record[field] = value as number;
      record.time_zone = timeZoneAt(record.latitude, record.longitude) ?? record.time_zone;
      return;
    case 'fsq_category_ids': {
      const ids = (value as string[] | null) ?? [];
      record.fsq_category_ids = ids;
      record.fsq_category_labels = ids.map((id) => reference.categories.get(id)?.label ?? id);
      return;
    }
    case 'fsq_chain_ids':
      record.fsq_chain_ids = (value as string[] | null) ?? [];
      return;
    case 'hours':
      record.hours = (value as HoursEntry[] | null) ?? null;
      return;
    case 'name':
      record.name = value as string;
      return;
    default:
      record[field] = value as string | null;
  }
}

/** The fields, by place, that a list of changes touches. */
export function touched(changes: readonly Change[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const c of changes) {
    if (c.fsq_place_id === null) continue;
    const set = out.get(c.fsq_place_id) ?? new Set<string>();
    set.add(c.field);
    out.set(c.fsq_place_id, set);
  }
  return out;
}

export function describe(value: Json): string {
  const text = value === null ? 'empty' : typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
