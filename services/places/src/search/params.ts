import { conflictingParameters, invalidParameter } from '../errors.ts';
import type { SearchQueryValues } from '../routes/schemas.ts';
import { type FieldName, parseFields } from './fields.ts';

/**
 * The search parameters of the 2025-06-17 API. Each value is checked by the route's schema (a bad one is a
 * 400 naming its parameter); parameters this API does not know are ignored, as the real service does.
 */
export const SORTS = ['RELEVANCE', 'RATING', 'DISTANCE', 'POPULARITY'] as const;
export type Sort = (typeof SORTS)[number];

export interface LatLng {
  latitude: number;
  longitude: number;
}

export interface SearchParams {
  query?: string;
  ll?: LatLng;
  radius?: number;
  categoryIds: string[];
  chainIds: string[];
  excludeChainIds: string[];
  excludeAllChains: boolean;
  fields: ReadonlySet<FieldName>;
  minPrice?: number;
  maxPrice?: number;
  /** Minute of the local week, Monday 00:00 = 0. */
  openAt?: number;
  openNow: boolean;
  ne?: LatLng;
  sw?: LatLng;
  near?: string;
  sort: Sort;
  limit: number;
  telFormat?: 'NATIONAL' | 'E164';
  cursor?: string;
}

export type RawQuery = Record<string, string | string[] | undefined>;

export const SEARCH_PARAMETERS = [
  'query',
  'll',
  'radius',
  'fsq_category_ids',
  'fsq_chain_ids',
  'exclude_fsq_chain_ids',
  'exclude_all_chains',
  'fields',
  'min_price',
  'max_price',
  'open_at',
  'open_now',
  'tel_format',
  'ne',
  'sw',
  'near',
  'sort',
  'limit',
] as const;

/** One value per parameter: a repeated parameter is refused rather than guessed at. */
export function single(raw: RawQuery, name: string): string | undefined {
  const value = raw[name];
  if (Array.isArray(value)) throw invalidParameter(name, 'given more than once; give it once');
  return value;
}

export function parseLatLng(name: string, text: string): LatLng {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(text);
  const latitude = Number(m?.[1]);
  const longitude = Number(m?.[2]);
  if (!m || !(Math.abs(latitude) <= 90) || !(Math.abs(longitude) <= 180)) {
    throw invalidParameter(
      name,
      `"${text.slice(0, 60)}" is not "latitude,longitude" with latitude from -90 to 90 and longitude from -180 to 180 (e.g. 40.7484,-73.9857)`,
    );
  }
  return { latitude, longitude };
}

export function parseInteger(name: string, text: string, min: number, max: number): number {
  if (!/^\s*\d{1,9}\s*$/.test(text) || Number(text) < min || Number(text) > max) {
    throw invalidParameter(name, `"${text.slice(0, 40)}" is not an integer from ${min} to ${max}`);
  }
  return Number(text);
}

export function parseBoolean(name: string, text: string): boolean {
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  throw invalidParameter(name, `"${text.slice(0, 40)}" is not true or false`);
}

const ID_LIST = /^[A-Za-z0-9_-]{1,64}$/;

export function parseIdList(name: string, text: string | undefined): string[] {
  if (text === undefined) return [];
  const ids = text.split(',').map((s) => s.trim());
  const bad = ids.find((id) => !ID_LIST.test(id));
  if (bad !== undefined) {
    throw invalidParameter(name, `"${bad.slice(0, 40)}" is not an id; give a comma-separated list of ids`);
  }
  if (ids.length > 50) throw invalidParameter(name, 'at most 50 ids');
  return [...new Set(ids)];
}

/** `open_at` is DOWTHHMM: day of week (Monday = 1 … Sunday = 7), "T", hour and minute, e.g. 1T2130. */
export function parseOpenAt(text: string): number {
  const m = /^([1-7])T([01]\d|2[0-3])([0-5]\d)$/.exec(text);
  if (!m) {
    throw invalidParameter(
      'open_at',
      `"${text.slice(0, 40)}" is not DOWTHHMM (day 1 = Monday … 7 = Sunday, T, 24-hour time), e.g. 1T2130`,
    );
  }
  return (Number(m[1]) - 1) * 1440 + Number(m[2]) * 60 + Number(m[3]);
}

/**
 * The search parameters as the route's schema let them through (each value checked by Ajv: types, ranges,
 * enums, patterns); what is checked here is what one parameter's schema can't say: how they combine.
 */
export function parseSearchParams(query: SearchQueryValues): SearchParams {
  const params: SearchParams = {
    categoryIds: parseIdList('fsq_category_ids', query.fsq_category_ids),
    chainIds: parseIdList('fsq_chain_ids', query.fsq_chain_ids),
    excludeChainIds: parseIdList('exclude_fsq_chain_ids', query.exclude_fsq_chain_ids),
    excludeAllChains: query.exclude_all_chains ?? false,
    fields: parseFields(query.fields),
    openNow: query.open_now ?? false,
    sort: query.sort ?? 'RELEVANCE',
    limit: query.limit ?? 10,
  };
  if (query.query !== undefined) params.query = query.query.trim();
  if (query.ll !== undefined) params.ll = parseLatLng('ll', query.ll);
  if (query.radius !== undefined) params.radius = query.radius;
  if (query.min_price !== undefined) params.minPrice = query.min_price;
  if (query.max_price !== undefined) params.maxPrice = query.max_price;
  if (params.minPrice !== undefined && params.maxPrice !== undefined && params.minPrice > params.maxPrice) {
    throw invalidParameter('max_price', `${params.maxPrice} is below min_price ${params.minPrice}`);
  }
  if (query.open_at !== undefined) {
    if (params.openNow) throw conflictingParameters('open_now', 'open_at', 'give one of them');
    params.openAt = parseOpenAt(query.open_at);
  }
  const { ne, sw } = query;
  if ((ne === undefined) !== (sw === undefined)) {
    const missing = ne === undefined ? 'ne' : 'sw';
    throw invalidParameter(
      missing,
      `${missing} is required with ${missing === 'ne' ? 'sw' : 'ne'}: the rectangle needs both corners`,
    );
  }
  if (ne !== undefined && sw !== undefined) {
    params.ne = parseLatLng('ne', ne);
    params.sw = parseLatLng('sw', sw);
    if (params.sw.latitude > params.ne.latitude) {
      throw invalidParameter('sw', 'the south-west corner must not be north of the north-east corner');
    }
  }
  if (query.near !== undefined) params.near = query.near.trim();
  if (params.ne && params.ll)
    throw conflictingParameters('ll', 'ne', 'search around a point (ll, radius) or in a rectangle (ne, sw)');
  if (params.near && params.ll) throw conflictingParameters('ll', 'near', 'give a point or a place name');
  if (params.near && params.ne) throw conflictingParameters('near', 'ne', 'give a place name or a rectangle');
  if (params.radius !== undefined && params.ne) {
    throw conflictingParameters(
      'ne',
      'radius',
      'radius applies around ll or near; a rectangle has its own bounds',
    );
  }
  if (params.excludeAllChains && params.excludeChainIds.length > 0) {
    throw conflictingParameters('exclude_all_chains', 'exclude_fsq_chain_ids', 'give one of them');
  }
  if (query.tel_format !== undefined) params.telFormat = query.tel_format;
  if (query.cursor !== undefined) params.cursor = query.cursor;
  return params;
}
