// The places benchmark's import process: a fresh database, one `cairn places import`-equivalent run of FILE.
import { identityMigrations } from '@cairn/identity';
import { importPlacesFile, placesMigrations } from '@cairn/places';
import { BENCH_PREFIX, freshDb } from './places-bench-db.ts';

const file = process.argv[2]!;
const db = await freshDb(`${BENCH_PREFIX}bench_places_import`, [...identityMigrations, ...placesMigrations]);
const result = await importPlacesFile(db, file, {
  batchSize: 10_000,
  onProgress: (rows) => {
    if (rows % 200_000 === 0) process.stderr.write(`imported ${rows}\n`);
  },
});
process.stdout.write(`${JSON.stringify({ imported: result.imported, bad: result.bad, ms: result.ms })}\n`);
await db.close();
