// Where a scenario of bench/places-search.ts spends PostgreSQL's time: (c) category + open_now + ll at each of
// the 100 most populous cities' centres, one query each (EXPLAIN ANALYZE, as the server plans it), printing the
// execution time, the results and the blocks read, the slowest first, and the sum. Run it on each database
// (1M, 10M) with the same instant to compare them city by city; the instant decides which places are open.
// When a search reads more than one page of nearest places, the figures are those of its last query.
//   DATABASE_URL=postgres://…/s34_1m npx tsx bench/places-cities.ts [ISO time, default now] [radius m, default 22000]
import { openPostgres, type Queryable, type QueryOptions } from '@cairn/kit';
import { gazetteer } from '../services/places/src/reference/cities.ts';
import { loadReference } from '../services/places/src/reference/reference.ts';
import type { SearchPlan } from '../services/places/src/search/plan.ts';
import { zoneMinutes } from '../services/places/src/search/zones.ts';
import { searchPlaces } from '../services/places/src/store/places-search.ts';

const db = openPostgres(process.env.DATABASE_URL!, { max: 1 });
const at = new Date(process.argv[2] ?? Date.now());
const radius = Number(process.argv[3] ?? 22_000);
const reference = await loadReference(db);
const restaurant = [...reference.categories.values()].find(
  (c) => c.label === 'Dining and Drinking > Restaurant',
)!;
const cities = [...gazetteer().cities].sort((a, b) => b.population - a.population).slice(0, 100);

interface Row {
  city: string;
  ms: number;
  results: number;
  blocks: number;
}
const rows: Row[] = [];
for (const city of cities) {
  const origin = { latitude: city.latitude, longitude: city.longitude };
  const circle = { center: origin, radius };
  const plan: SearchPlan = {
    categoryIds: reference.withDescendants(restaurant.id),
    categoryRoots: [restaurant.id],
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
  let row: Row | undefined;
  const explain: Queryable = {
    query: (async (sql: string, params?: readonly unknown[], options?: QueryOptions) => {
      const r = await db.transaction(async (tx) => {
        if (options?.bitmapScans === false) await tx.query('SET LOCAL enable_bitmapscan = off');
        return tx.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
      });
      const [top] = r.rows[0]!['QUERY PLAN'] as {
        Plan: { 'Actual Rows': number; 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
        'Execution Time': number;
      }[];
      row = {
        city: `${city.name}, ${city.country}`,
        ms: top!['Execution Time'],
        results: top!.Plan['Actual Rows'],
        blocks: top!.Plan['Shared Hit Blocks'] + top!.Plan['Shared Read Blocks'],
      };
      return { rows: [], rowCount: 0 };
    }) as Queryable['query'],
    exec: async () => {},
    copyIn: async () => {},
  };
  await searchPlaces(explain, plan); // warm
  await searchPlaces(explain, plan);
  rows.push(row!);
}
rows.sort((a, b) => b.ms - a.ms);
const total = rows.reduce((s, r) => s + r.ms, 0);
console.log(
  `(c) at ${at.toISOString()}, radius ${radius} m: ${total.toFixed(1)} ms for 100 cities (mean ${(total / 100).toFixed(2)})`,
);
for (const r of rows.slice(0, 25))
  console.log(
    `${r.city.padEnd(34)} ${r.ms.toFixed(2).padStart(8)} ms ${String(r.results).padStart(4)} results ${String(r.blocks).padStart(7)} blocks`,
  );
await db.close();
