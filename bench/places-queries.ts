// The benchmark's search queries alone, without HTTP: `searchPlaces` on one connection around the 100 most
// populous cities, each scenario twice (the second round is reported, warm), on the benchmark's database.
// Run after bench/places-search.ts:
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/cairn_bench_places npx tsx bench/places-queries.ts [abc] [rounds]
import { loadavg } from 'node:os';
import { openPostgres } from '@cairn/kit';
import { gazetteer } from '../services/places/src/reference/cities.ts';
import { loadReference } from '../services/places/src/reference/reference.ts';
import { languagesNear, meaningOf } from '../services/places/src/search/meaning.ts';
import type { SearchPlan } from '../services/places/src/search/plan.ts';
import { zoneMinutes } from '../services/places/src/search/zones.ts';
import { searchPlaces } from '../services/places/src/store/places-search.ts';
import { QUERY_WORDS } from './places-words.ts';
import { quantile } from './report.ts';

const db = openPostgres(process.env.DATABASE_URL!, { max: 1 });
const reference = await loadReference(db);
const restaurant = [...reference.categories.values()].find(
  (c) => c.label === 'Dining and Drinking > Restaurant',
)!;
const cities = [...gazetteer().cities].sort((a, b) => b.population - a.population).slice(0, 100);
const words = QUERY_WORDS;
const base: SearchPlan = {
  categoryIds: [],
  chainIds: [],
  excludeChainIds: [],
  excludeAllChains: false,
  order: 'distance',
  limit: 11,
};
const at = (i: number) => {
  const c = cities[i % cities.length]!;
  return { latitude: c.latitude, longitude: c.longitude };
};
const scenarios: Record<string, (i: number) => SearchPlan> = {
  a: (i) => ({ ...base, origin: at(i), circle: { center: at(i), radius: 5000 } }),
  b: (i) => ({
    ...base,
    origin: at(i),
    circle: { center: at(i), radius: 22000 },
    query: words[i % words.length]!,
    // What the query names, as the server works it out (search.ts).
    meaning: meaningOf(
      words[i % words.length]!,
      reference,
      languagesNear(gazetteer().cities, undefined, at(i)),
    ),
    order: 'relevance',
  }),
  c: (i) => {
    const now = new Date();
    const circle = { center: at(i), radius: 22000 };
    return {
      ...base,
      origin: at(i),
      circle,
      categoryIds: reference.withDescendants(restaurant.id),
      openNowAt: now,
      openNowZones: zoneMinutes({ circle }, now),
    };
  },
};
const which = (process.argv[2] ?? 'abc').split('');
const rounds = Math.max(2, Number(process.argv[3] ?? 2));
const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM places');
console.log(
  `places queries alone — postgres, ${rows[0]!.n.toLocaleString('en-US')} places, 1 connection, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const name of which) {
  const make = scenarios[name];
  if (!make) continue;
  const times: number[] = [];
  // (b): the time of each query word (its mean over the cities), the words' costs differing most.
  const byWord = new Map<string, number[]>();
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < cities.length; i++) {
      const started = performance.now();
      await searchPlaces(db, make(i));
      if (r === 0) continue;
      const ms = performance.now() - started;
      times.push(ms);
      if (name !== 'b') continue;
      const word = words[i % words.length]!;
      const list = byWord.get(word) ?? [];
      list.push(ms);
      byWord.set(word, list);
    }
  }
  times.sort((x, y) => x - y);
  const q = (p: number) => quantile(times, p)!.toFixed(1);
  console.log(`(${name}) p50 ${q(0.5)} ms  p90 ${q(0.9)} ms  p99 ${q(0.99)} ms  (${times.length} queries)`);
  if (byWord.size > 0) {
    const mean = (list: number[]) => list.reduce((sum, v) => sum + v, 0) / list.length;
    console.log(
      `    mean ms by word: ${[...byWord].map(([word, list]) => `${word} ${mean(list).toFixed(2)}`).join(', ')}`,
    );
  }
}
await db.close();
