import { type PlaceRecord, placemakerUrl } from '../data/place-record.ts';
import { PLACE_ID } from '../reference/ids.ts';
import { timeZoneAt } from '../reference/time-zone.ts';

/**
 * One row of the open places dataset (Parquet values or CSV text) → a place record, or the reason it is
 * refused. Columns are the dataset's; geom and bbox are derived from latitude/longitude and ignored here.
 */
export type RowValue =
  | string
  | number
  | bigint
  | boolean
  | Date
  | null
  | undefined
  | RowValue[]
  | { [k: string]: RowValue }
  | Uint8Array;

export class BadRow extends Error {}

export const REQUIRED_COLUMNS = ['fsq_place_id', 'name', 'latitude', 'longitude'] as const;

function text(value: RowValue, column: string, max = 500): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object' && !(value instanceof Date)) throw new BadRow(`${column} is not text`);
  const s = value instanceof Date ? value.toISOString() : String(value).trim();
  if (s === '') return null;
  if (s.length > max) throw new BadRow(`${column} is longer than ${max} characters`);
  return storable(s, column);
}

/** PostgreSQL's text cannot hold U+0000: the row is refused rather than the whole import failing. */
function storable(s: string, column: string): string {
  if (s.includes('\u0000'))
    throw new BadRow(`${column} contains a NUL character (U+0000), which cannot be stored`);
  return s;
}

function number(value: RowValue, column: string, min: number, max: number): number {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'bigint'
        ? Number(value)
        : Number(text(value, column) ?? Number.NaN);
  if (!Number.isFinite(n) || n < min || n > max)
    throw new BadRow(`${column} must be a number from ${min} to ${max}`);
  return n;
}

function date(value: RowValue, column: string): string | null {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new BadRow(`${column} is not a date`);
    return value.toISOString().slice(0, 10);
  }
  const s = text(value, column, 40);
  if (s === null) return null;
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(s);
  if (!m || Number.isNaN(Date.parse(m[1]!)))
    throw new BadRow(`${column} "${s.slice(0, 30)}" is not a date (YYYY-MM-DD)`);
  return m[1]!;
}

/** Lists: Parquet lists, or in CSV a JSON array, a bracketed list "[a, b]", or an empty cell. */
function list(value: RowValue, column: string): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.map((v) => text(v, column)).filter((v): v is string => v !== null);
  const s = text(value, column, 10_000);
  if (s === null) return [];
  if (s.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(s);
    } catch {
      if (!s.endsWith(']')) throw new BadRow(`${column} is not a list`);
      return s
        .slice(1, -1)
        .split(',')
        .map((v) => v.trim().replace(/^'(.*)'$/, '$1'))
        .filter((v) => v !== '');
    }
    if (Array.isArray(parsed))
      return parsed.map((v) => storable(String(v).trim(), column)).filter((v) => v !== '');
  }
  return [s];
}

export function toPlaceRecord(row: Record<string, RowValue>): PlaceRecord {
  const id = text(row.fsq_place_id, 'fsq_place_id', 64);
  if (id === null) throw new BadRow('fsq_place_id is empty');
  if (!PLACE_ID.test(id))
    throw new BadRow(
      `fsq_place_id "${id.slice(0, 30)}" is not 24 lower-case hexadecimal digits (the dataset's ids)`,
    );
  const name = text(row.name, 'name');
  if (name === null) throw new BadRow('name is empty');
  const latitude = number(row.latitude, 'latitude', -90, 90);
  const longitude = number(row.longitude, 'longitude', -180, 180);
  const categoryIds = list(row.fsq_category_ids, 'fsq_category_ids');
  const labels = list(row.fsq_category_labels, 'fsq_category_labels');
  if (labels.length > 0 && labels.length !== categoryIds.length) {
    throw new BadRow(
      `fsq_category_ids has ${categoryIds.length} ids but fsq_category_labels ${labels.length} labels`,
    );
  }
  if (categoryIds.some((c) => !/^[A-Za-z0-9_-]{1,64}$/.test(c)))
    throw new BadRow('fsq_category_ids holds something that is not an id');
  const country = text(row.country, 'country', 10);
  if (country !== null && !/^[A-Za-z]{2}$/.test(country))
    throw new BadRow(`country "${country}" is not a two-letter code`);
  return {
    fsq_place_id: id,
    name,
    latitude,
    longitude,
    address: text(row.address, 'address'),
    locality: text(row.locality, 'locality'),
    region: text(row.region, 'region'),
    postcode: text(row.postcode, 'postcode'),
    admin_region: text(row.admin_region, 'admin_region'),
    post_town: text(row.post_town, 'post_town'),
    po_box: text(row.po_box, 'po_box'),
    country: country?.toUpperCase() ?? null,
    date_created: date(row.date_created, 'date_created'),
    date_refreshed: date(row.date_refreshed, 'date_refreshed'),
    date_closed: date(row.date_closed, 'date_closed'),
    tel: text(row.tel, 'tel'),
    website: text(row.website, 'website', 2000),
    email: text(row.email, 'email'),
    facebook_id: text(row.facebook_id, 'facebook_id'),
    instagram: text(row.instagram, 'instagram'),
    twitter: text(row.twitter, 'twitter'),
    fsq_category_ids: categoryIds,
    fsq_category_labels: labels,
    placemaker_url: text(row.placemaker_url, 'placemaker_url', 2000) ?? placemakerUrl(id),
    unresolved_flags: list(row.unresolved_flags, 'unresolved_flags'),
    fsq_chain_ids: [],
    price: null,
    rating: null,
    popularity: null,
    hours: null,
    time_zone: timeZoneAt(latitude, longitude),
  };
}
