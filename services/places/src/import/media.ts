import { PHOTO_CLASSIFICATIONS } from '../media/kinds.ts';
import type { NewPhoto, NewTip } from '../store/media.ts';
import { BadRow, type RowValue } from './row.ts';

/**
 * Tips and photos of an imported row, where the file has them: optional columns `tips` and `photos` (beyond the
 * open places dataset's, which has neither), each a list of objects in the places API's shapes — a Parquet list
 * of structs, or JSON text in CSV. Tips: {fsq_tip_id, created_at, text, lang?, url?, agree_count?,
 * disagree_count?}; photos: {id, created_at, prefix, suffix, width, height, classifications?}. A malformed entry
 * makes the row bad, with the reason.
 */
export const MEDIA_COLUMNS = ['tips', 'photos'] as const;
const MAX_ITEMS = 200;
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const CLASSIFICATIONS = new Set<string>(PHOTO_CLASSIFICATIONS);

export interface RowMedia {
  tips: NewTip[];
  photos: NewPhoto[];
}

function items(value: RowValue, column: string): Record<string, unknown>[] {
  if (value === null || value === undefined || value === '') return [];
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new BadRow(`${column} is not a JSON list`);
    }
  }
  if (!Array.isArray(parsed)) throw new BadRow(`${column} is not a list`);
  if (parsed.length > MAX_ITEMS) throw new BadRow(`${column} has more than ${MAX_ITEMS} entries`);
  return parsed.map((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item))
      throw new BadRow(`${column}[${i}] is not an object`);
    return item as Record<string, unknown>;
  });
}

function field(item: Record<string, unknown>, where: string, name: string, max: number): string {
  const value = item[name];
  if (typeof value !== 'string' || value.trim() === '' || value.length > max || value.includes('\u0000'))
    throw new BadRow(`${where}.${name} must be text of 1 to ${max} characters`);
  return value.trim();
}

const optional = (item: Record<string, unknown>, where: string, name: string, max: number) =>
  item[name] === undefined || item[name] === null ? null : field(item, where, name, max);

function moment(item: Record<string, unknown>, where: string): Date {
  const at = new Date(field(item, where, 'created_at', 40));
  if (Number.isNaN(at.getTime())) throw new BadRow(`${where}.created_at is not a date and time`);
  return at;
}

function count(item: Record<string, unknown>, where: string, name: string, max = 1e9): number {
  const value = item[name] ?? 0;
  const n = typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > max)
    throw new BadRow(`${where}.${name} must be a whole number from 0 to ${max}`);
  return n;
}

function identifier(item: Record<string, unknown>, where: string, name: string): string {
  const id = field(item, where, name, 64);
  if (!ID.test(id)) throw new BadRow(`${where}.${name} must be letters, digits, _ or -`);
  return id;
}

export function mediaOfRow(placeId: string, values: Record<string, RowValue>): RowMedia {
  const tips = items(values.tips, 'tips').map((item, i): NewTip => {
    const where = `tips[${i}]`;
    return {
      fsq_tip_id: identifier(item, where, 'fsq_tip_id'),
      fsq_place_id: placeId,
      created_at: moment(item, where),
      text: field(item, where, 'text', 2000),
      lang: optional(item, where, 'lang', 10),
      url: optional(item, where, 'url', 500),
      agree_count: count(item, where, 'agree_count'),
      disagree_count: count(item, where, 'disagree_count'),
      source: 'import',
      edit_id: null,
      organization_id: null,
      app_id: null,
      user_id: null,
    };
  });
  const photos = items(values.photos, 'photos').map((item, i): NewPhoto => {
    const where = `photos[${i}]`;
    const classifications = item.classifications ?? [];
    if (!Array.isArray(classifications) || classifications.some((c) => !CLASSIFICATIONS.has(String(c))))
      throw new BadRow(`${where}.classifications must be a list of ${PHOTO_CLASSIFICATIONS.join(', ')}`);
    return {
      id: identifier(item, where, 'id'),
      fsq_place_id: placeId,
      created_at: moment(item, where).toISOString(),
      prefix: field(item, where, 'prefix', 500),
      suffix: field(item, where, 'suffix', 500),
      width: count(item, where, 'width', 100_000) || badSize(where),
      height: count(item, where, 'height', 100_000) || badSize(where),
      classifications: classifications.map(String),
    };
  });
  return { tips, photos };
}

function badSize(where: string): never {
  throw new BadRow(`${where} must have a width and height above 0`);
}
