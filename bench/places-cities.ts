// Where a scenario of bench/places-search.ts spends PostgreSQL's time: (c) category + open_now + ll at each of
// the 100 most populous cities' centres, one query each (EXPLAIN ANALYZE, as the server plans it), printing the
// execution time, the results and the blocks read, the slowest first, and the sum. Run it on each database
// (1M, 10M) with the same instant to compare them city by city; the instant decides which places are open.
// When a search reads more than one page of nearest places, the figures are those of its last query.
//   DATABASE_URL=postgres://…/s34_1m npx tsx bench/places-cities.ts [ISO time, default now] [radius m, default 22000]
import { openPostgres } from '@cairn/kit';
import { gazetteer } from '../services/places/src/reference/cities.ts';
import { loadReference } from '../services/places/src/reference/reference.ts';
import { searchPlaces } from '../services/places/src/store/places-search.ts';
import { explaining, openRestaurantsPlan } from './places-explaining.ts';

const db = openPostgres(process.env.DATABASE_URL!, { max: 1 });
const at = new Date(process.argv[2] ?? Date.now());
const radius = Number(process.argv[3] ?? 22_000);
const reference = await loadReference(db);
const cities = [...gazetteer().cities].sort((a, b) => b.population - a.population).slice(0, 100);

interface Plan {
  Plan: { 'Actual Rows': number; 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
  'Execution Time': number;
}
interface Row {
  city: string;
  ms: number;
  results: number;
  blocks: number;
}
const rows: Row[] = [];
for (const city of cities) {
  const plan = openRestaurantsPlan(
    reference,
    { latitude: city.latitude, longitude: city.longitude },
    radius,
    at,
  );
  let row: Row | undefined;
  const explain = explaining(db, 'ANALYZE, BUFFERS, FORMAT JSON', (result) => {
    const [top] = result[0]!['QUERY PLAN'] as Plan[];
    row = {
      city: `${city.name}, ${city.country}`,
      ms: top!['Execution Time'],
      results: top!.Plan['Actual Rows'],
      blocks: top!.Plan['Shared Hit Blocks'] + top!.Plan['Shared Read Blocks'],
    };
  });
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
