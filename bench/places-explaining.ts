// For the benchmarks that read the plans of the places searches: a Queryable that runs each query of a search
// under EXPLAIN as the server would run it, and the plan of scenario (c) of bench/places-search.ts.
import type { Db, Queryable, QueryOptions } from '@cairn/kit';
import type { Reference } from '../services/places/src/reference/reference.ts';
import type { LatLng } from '../services/places/src/search/params.ts';
import type { SearchPlan } from '../services/places/src/search/plan.ts';
import { zoneMinutes } from '../services/places/src/search/zones.ts';

/**
 * A Queryable on `db` that runs each query as `EXPLAIN (<options>) <query>`, as the server runs it (without
 * bitmap scans or parallel workers where the search asks so: QueryOptions.bitmapScans), hands the EXPLAIN rows to `onPlan`, and
 * answers the search with no rows.
 */
export function explaining(
  db: Db,
  options: string,
  onPlan: (rows: Record<string, unknown>[]) => void,
): Queryable {
  return {
    query: (async (sql: string, params?: readonly unknown[], queryOptions?: QueryOptions) => {
      const r = await db.transaction(async (tx) => {
        if (queryOptions?.bitmapScans === false) {
          await tx.query('SET LOCAL enable_bitmapscan = off');
          await tx.query('SET LOCAL max_parallel_workers_per_gather = 0');
        }
        return tx.query<Record<string, unknown>>(`EXPLAIN (${options}) ${sql}`, params);
      });
      onPlan(r.rows);
      return { rows: [], rowCount: 0 };
    }) as Queryable['query'],
    exec: async () => {},
    copyIn: async () => {},
  };
}

/** The id of the benchmark's category, Dining and Drinking > Restaurant. */
export function restaurantId(reference: Reference): string {
  return [...reference.categories.values()].find((c) => c.label === 'Dining and Drinking > Restaurant')!.id;
}

/** Scenario (c): restaurants open at `at` within `radius` metres of `origin`, nearest first, a page of 10. */
export function openRestaurantsPlan(
  reference: Reference,
  origin: LatLng,
  radius: number,
  at: Date,
): SearchPlan {
  const restaurant = restaurantId(reference);
  const circle = { center: origin, radius };
  return {
    categoryIds: reference.withDescendants(restaurant),
    categoryRoots: [restaurant],
    chainIds: [],
    excludeChainIds: [],
    excludeAllChains: false,
    order: 'distance',
    limit: 11,
    origin,
    circle,
    openNowAt: at,
    openNowZones: zoneMinutes({ circle }, at),
  };
}
