// What each index of places and places_open_kinds costs a load: `count` generated places (a fresh database),
// then for each table an unlogged copy is filled from it once with no index, then once with each index alone
// (kept row by row, as generation and import keep them), and that index is built once over the filled copy.
// Prints µs per row above the copy with no index, and per place. The indexes are read from the migrated
// database, so the figures follow the migrations. PostgreSQL only (DATABASE_URL).
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres PLACES_BENCH_PREFIX=h6_ npx tsx bench/places-index-costs.ts [count=200000]
//
// 2 December, 200,000 places, load 1.7–3.1: the places GiST 35.9 µs a row, the GiST of places_open_kinds 22.7
// (1.82 rows a place: 41.4 µs a place), the trigram GIN 17.2, the others under 3 (docs/operations.md,
// "2 December, later").

import { loadavg } from 'node:os';
import { generatePlaces, placesMigrations } from '@cairn/places';
import { BENCH_PREFIX, freshDb } from './places-bench-db.ts';

if (!process.env.DATABASE_URL)
  throw new Error('bench/places-index-costs.ts measures PostgreSQL: set DATABASE_URL');
const count = Number(process.argv[2] ?? 200_000);
const name = `${BENCH_PREFIX}index_costs`;
const db = await freshDb(name, placesMigrations);
await generatePlaces(db, { count, seed: 'bench', batchSize: 10_000 });
console.log(`${count} places generated into ${name}; load ${loadavg()[0]!.toFixed(1)}`);

async function timed(sql: string): Promise<number> {
  const start = performance.now();
  await db.query(sql);
  return performance.now() - start;
}

for (const table of ['places', 'places_open_kinds']) {
  const copy = `bench_${table}`;
  const rows = Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
  const { rows: indexes } = await db.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = $1 ORDER BY indexname`,
    [table],
  );
  await db.query(`DROP TABLE IF EXISTS ${copy}`);
  await db.query(`CREATE UNLOGGED TABLE ${copy} (LIKE ${table})`);
  const fill = `INSERT INTO ${copy} SELECT * FROM ${table}`;
  // The copy with no index, twice (the first warms the source's pages); the lower counts.
  let bare = Infinity;
  for (let i = 0; i < 2; i++) {
    await db.query(`TRUNCATE ${copy}`);
    bare = Math.min(bare, await timed(fill));
  }
  const perPlace = rows / count;
  console.log(
    `\n${table}: ${rows} rows (${perPlace.toFixed(2)} a place); filled with no index in ${(bare / 1000).toFixed(2)} s (${((bare * 1000) / rows).toFixed(1)} µs a row)`,
  );
  console.log(
    `${'index'.padEnd(26)} ${'kept: µs/row'.padStart(13)} ${'µs/place'.padStart(9)} ${'built after: µs/row'.padStart(20)}`,
  );
  for (const index of indexes) {
    const create = index.indexdef.replace(
      /^CREATE (UNIQUE )?INDEX \S+ ON (?:ONLY )?(?:public\.)?\S+ /,
      (_, unique: string | undefined) => `CREATE ${unique ?? ''}INDEX bench_index ON ${copy} `,
    );
    await db.query(`TRUNCATE ${copy}`);
    await db.query(create);
    const kept = (await timed(fill)) - bare;
    await db.query('DROP INDEX bench_index');
    const built = await timed(create);
    await db.query('DROP INDEX bench_index');
    const row = (kept * 1000) / rows;
    console.log(
      `${index.indexname.padEnd(26)} ${row.toFixed(1).padStart(13)} ${(row * perPlace).toFixed(1).padStart(9)} ${((built * 1000) / rows).toFixed(1).padStart(20)}`,
    );
  }
  await db.query(`DROP TABLE ${copy}`);
}
await db.close();
