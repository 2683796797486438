import { phoneQuery } from '../data/phone-text.ts';
import type { PlacesDeps } from '../deps.ts';
import { invalidParameter } from '../errors.ts';
import { mediaForFields } from '../media/endpoints.ts';
import type { City } from '../reference/cities.ts';
import type { SearchQueryValues } from '../routes/schemas.ts';
import { searchPlaces } from '../store/places-search.ts';
import { categoryFilter } from './categories.ts';
import { decodeCursor, encodeCursor, paramsDigest } from './cursor.ts';
import { languagesNear, meaningOf } from './meaning.ts';
import { cityRadius, resolveNear } from './near.ts';
import { parseSearchParams, type SearchParams } from './params.ts';
import { type Order, rectangleCenter, type SearchPlan } from './plan.ts';
import { renderPlace } from './render.ts';
import { zoneMinutes } from './zones.ts';

export const DEFAULT_RADIUS = 22_000;

export interface SearchAnswer {
  body: { results: Record<string, unknown>[]; context: Record<string, unknown> };
  /** The cursor of the next page, when there is one. */
  nextCursor?: string;
}

function canonical(params: SearchParams) {
  const { cursor: _cursor, fields, ...rest } = params;
  return { ...rest, fields: [...fields].sort() };
}

function orderOf(params: SearchParams, hasOrigin: boolean): Order {
  switch (params.sort) {
    case 'DISTANCE':
      if (!hasOrigin)
        throw invalidParameter('sort', 'DISTANCE needs a location: give ll, near, or ne and sw');
      return 'distance';
    case 'RATING':
      return 'rating';
    case 'POPULARITY':
      return 'popularity';
    default:
      // Relevance is text similarity (with nearness and popularity) when there is a query; without one, the
      // nearest places come first, or the most popular when no location is given.
      if (params.query !== undefined) return 'relevance';
      return hasOrigin ? 'distance' : 'popularity';
  }
}

export async function search(deps: PlacesDeps, query: SearchQueryValues): Promise<SearchAnswer> {
  const params = parseSearchParams(query);
  const reference = deps.reference();
  const plan: SearchPlan = {
    ...categoryFilter(reference, params.categoryIds),
    chainIds: params.chainIds,
    excludeChainIds: params.excludeChainIds,
    excludeAllChains: params.excludeAllChains,
    order: 'distance',
    limit: params.limit + 1,
    fields: params.fields,
  };
  const context: Record<string, unknown> = {};
  let nearCity: City | undefined;
  if (params.ll) {
    const radius = params.radius ?? DEFAULT_RADIUS;
    plan.origin = params.ll;
    plan.circle = { center: params.ll, radius };
  } else if (params.near) {
    const city = resolveNear(deps.gazetteer(), params.near);
    nearCity = city;
    const center = { latitude: city.latitude, longitude: city.longitude };
    plan.origin = center;
    plan.circle = { center, radius: params.radius ?? cityRadius(city) };
  } else if (params.ne && params.sw) {
    plan.rectangle = { ne: params.ne, sw: params.sw };
    plan.origin = rectangleCenter(params.ne, params.sw);
    context.geo_bounds = { rectangle: { ne: params.ne, sw: params.sw } };
  }
  if (plan.circle)
    context.geo_bounds = { circle: { center: plan.circle.center, radius: plan.circle.radius } };
  if (params.query !== undefined) {
    // A telephone number is matched by its digits, however it is spaced (data/phone-text.ts).
    plan.query = phoneQuery(params.query) ?? params.query;
    const languages = languagesNear(deps.gazetteer().cities, nearCity, plan.origin);
    plan.meaning = meaningOf(params.query, reference, languages);
  }
  if (params.minPrice !== undefined) plan.minPrice = params.minPrice;
  if (params.maxPrice !== undefined) plan.maxPrice = params.maxPrice;
  if (params.openAt !== undefined) plan.openAtMinute = params.openAt;
  plan.order = orderOf(params, plan.origin !== undefined);

  const digest = paramsDigest(canonical(params));
  const secret = await deps.cursorSecret();
  let now = deps.clock.now();
  if (params.cursor !== undefined) {
    const state = decodeCursor(secret, params.cursor, digest);
    now = new Date(state.t);
    const tier = state.f === 1 ? 'approximate' : state.f === 2 ? 'beyond' : undefined;
    plan.after = { key: state.k, id: state.i, ...(tier ? { tier } : {}) };
  }
  if (params.openNow) {
    plan.openNowAt = now;
    plan.openNowZones = zoneMinutes(plan, now);
  }

  const rows = await searchPlaces(deps.db, plan);
  const page = rows.slice(0, params.limit);
  const pageIds = page.map((row) => row.fsq_place_id);
  const media = await mediaForFields(deps.db, pageIds, params.fields);
  const answer: SearchAnswer = {
    body: {
      results: page.map((row) =>
        renderPlace(row, {
          reference,
          fields: params.fields,
          now,
          publicUrl: deps.publicUrl,
          ...(params.telFormat ? { telFormat: params.telFormat } : {}),
          ...(media ? { media } : {}),
        }),
      ),
      context,
    },
  };
  const last = page[page.length - 1];
  if (rows.length > params.limit && last) {
    answer.nextCursor = encodeCursor(secret, {
      p: digest,
      t: now.getTime(),
      k: last.sort_key!,
      i: last.fsq_place_id,
      ...(last.tier ? { f: last.tier === 'approximate' ? (1 as const) : (2 as const) } : {}),
    });
  }
  return answer;
}

/** The `Link` header of the next page: the original query with the cursor first, as the real service does. */
export function nextLink(publicUrl: string, rawUrl: string, path: string, cursor: string): string {
  const query = rawUrl.includes('?') ? rawUrl.slice(rawUrl.indexOf('?') + 1) : '';
  const kept = query.split('&').filter((pair) => pair !== '' && safeDecode(pair.split('=')[0]!) !== 'cursor');
  return `<${publicUrl}${path}?${[`cursor=${encodeURIComponent(cursor)}`, ...kept].join('&')}>; rel="next"`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
