// The install step's demo database: the first start's migrations, reference data and demo places, built once
// here so that a first `npm start` loads them instead of generating them (apps/cli/src/demo-database.ts).
// `npm install` runs it (the root "prepare" script, through "build"); it does nothing when the dump for the
// current code and PLACES_DEMO_COUNT is already there.
//   node --import tsx scripts/build-demo-database.ts
import { buildDemoDatabase } from '../apps/cli/src/demo-database.ts';

const started = Date.now();
const result = await buildDemoDatabase();
const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (!result) process.stdout.write('demo database: none (PLACES_DEMO_COUNT=0)\n');
else if (result.built)
  process.stdout.write(`demo database built: ${result.places} places in ${seconds} s (${result.dir})\n`);
else process.stdout.write(`demo database up to date (${result.dir})\n`);
