// Prints the plans of the benchmark's queries (EXPLAIN ANALYZE) on the benchmark's PostgreSQL database.
// Run after bench/places-search.ts: DATABASE_URL=postgres://…/cairn_bench_places npx tsx bench/places-explain.ts
// [a|b|c …: only these]
import { openPostgres } from '@cairn/kit';
import { gazetteer } from '../services/places/src/reference/cities.ts';
import { loadReference } from '../services/places/src/reference/reference.ts';
import { languagesNear, meaningOf } from '../services/places/src/search/meaning.ts';
import type { SearchPlan } from '../services/places/src/search/plan.ts';
import { searchPlaces } from '../services/places/src/store/places-search.ts';
import { explaining, openRestaurantsPlan } from './places-explaining.ts';

const db = openPostgres(process.env.DATABASE_URL!);
const reference = await loadReference(db);
// PLACES_EXPLAIN_LL=lat,lng for another origin than Tokyo's centre (e.g. 40.7128,-74.006 for New York)
const [latitude, longitude] = (process.env.PLACES_EXPLAIN_LL ?? '35.6895,139.69171').split(',').map(Number);
const origin = { latitude: latitude!, longitude: longitude! };
// PLACES_EXPLAIN_QUERY: the text of (b), default pizza
const query = process.env.PLACES_EXPLAIN_QUERY ?? 'pizza';
const base: SearchPlan = {
  categoryIds: [],
  chainIds: [],
  excludeChainIds: [],
  excludeAllChains: false,
  order: 'distance',
  limit: 11,
};
const plans: Record<string, SearchPlan> = {
  a: { ...base, origin, circle: { center: origin, radius: 5000 } },
  b: {
    ...base,
    origin,
    circle: { center: origin, radius: 22000 },
    query,
    meaning: meaningOf(query, reference, languagesNear(gazetteer().cities, undefined, origin)),
    order: 'relevance',
  },
  c: openRestaurantsPlan(reference, origin, 22000, new Date()),
};
const only = process.argv.slice(2);
for (const [name, plan] of Object.entries(plans)) {
  if (only.length > 0 && !only.includes(name)) continue;
  // As the server plans it: a walk without bitmap scans (QueryOptions.bitmapScans).
  const explain = explaining(db, 'ANALYZE, BUFFERS', (rows) =>
    console.log(`--- ${name}\n${rows.map((x) => Object.values(x)[0]).join('\n')}`),
  );
  await searchPlaces(explain, plan);
}
await db.close();
