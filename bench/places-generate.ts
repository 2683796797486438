// How fast places are generated: the generator alone (CPU µs per place, no database), the first start's demo
// set written to a fresh database (PGlite, or PostgreSQL with DATABASE_URL), and `count` places written by
// generatePlaces as `cairn places generate` does. Prints wall and CPU time of this process, on PostgreSQL also the
// server's CPU for the load, and the load average.
//   npx tsx bench/places-generate.ts [count=100000] [demo=20000]
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres PLACES_BENCH_PREFIX=h4_ npx tsx bench/places-generate.ts 1000000 0
// PLACES_BENCH_WITHOUT=index,index… drops those indexes from the fresh database first: what a load costs without
// them (a floor, not a way to load: search needs them).
//
// One run (commit 60724e9, load 30–36 on 2 shared cores, so wall times are 5–20× the CPU):
//   generator alone                 33.6 µs CPU per place
//   generatePlaces, PostgreSQL 200k  Node 90.3 µs/place (generator ~34, the JSON batch ~45), PostgreSQL 141.8 µs/place
//   → 1M needs ~90 s of Node CPU and ~140 s of the server's: above the 60 s target on two cores, the server's
//     share (JSON recordset upsert, index builds) first.
//   first start, cairn serve on PGlite with an empty data dir: 22 s CPU without demo, 33 s with the default 20,000
//     (the demo adds ~11 s CPU; 'Generated 20,000 demo places in 62.7 s' wall at load 31).
//
// Quiet machine, 27 Nov: before loading by COPY (json_to_recordset upsert, indexes dropped and rebuilt):
//   generatePlaces, PostgreSQL 1M    wall 149.4 s, Node 39.7 s CPU, PostgreSQL 119.0 s
// after (a2d3d38: COPY, indexes kept, made in chunks between turns of the event loop):
//   generator alone                 19.2 µs CPU per place
//   generatePlaces, PostgreSQL 1M    wall 60.8 s, Node 40.1 s CPU, PostgreSQL 48.5 s (other runs: 59.2, 59.7 s)
// 29 Nov, with 0017/0018 (two GiSTs kept row by row), one connection (d86ffe3) and two (100df04, 07bd21b):
//   generatePlaces, PostgreSQL 1M    one: wall 110.9 s, Node 43.0 s, PostgreSQL 103.3 s; two: wall 77.2 s, 44.2, 98.0
//   generatePlaces, PostgreSQL 10M   two: wall 863.2 s and 884.0 s (Node 438.3 s, PostgreSQL backends 571.5 s)
//   (docs/operations.md, "29 November, night": where the rest of a 10M load's time goes)

import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { gazetteer, generatePlaces, placesMigrations, seedDemo } from '@cairn/places';
import { generateInSpaceOrder } from '../services/places/src/generate/generator.ts';
import { buildChains } from '../services/places/src/reference/chains.ts';
import { buildTaxonomy } from '../services/places/src/reference/taxonomy.ts';
import { BENCH_PREFIX, freshDb } from './places-bench-db.ts';

const count = Number(process.argv[2] ?? 100_000);
const demo = Number(process.argv[3] ?? 20_000);
const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';

function measure<T>(run: () => Promise<T>): Promise<{ result: T; wallMs: number; cpuMs: number }> {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  return run().then((result) => {
    const used = process.cpuUsage(cpu);
    return { result, wallMs: performance.now() - wall, cpuMs: (used.user + used.system) / 1000 };
  });
}

/** CPU seconds of the PostgreSQL server processes serving database `name` (this machine's /proc, 100 Hz ticks). */
function serverCpu(name: string): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(` ${name} `)) continue;
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks / 100;
}

const load = () => loadavg()[0]!.toFixed(1);
const line = (what: string, m: { wallMs: number; cpuMs: number }, n: number) =>
  console.log(
    `${what.padEnd(34)} ${String(n).padStart(9)} places  wall ${(m.wallMs / 1000).toFixed(1).padStart(6)} s  CPU ${(m.cpuMs / 1000).toFixed(1).padStart(6)} s  (${((m.cpuMs * 1000) / n).toFixed(1)} µs/place)  load ${load()}`,
  );

const setup = await measure(async () => {
  const taxonomy = buildTaxonomy();
  return { taxonomy, chains: buildChains(taxonomy), cities: gazetteer().cities };
});
console.log(`reference data (taxonomy, chains, gazetteer): wall ${(setup.wallMs / 1000).toFixed(1)} s`);

const alone = Math.min(count, 200_000);
const generator = await measure(async () => {
  let n = 0;
  for (const batch of generateInSpaceOrder({ seed: 'bench', ...setup.result }, alone, 5000))
    n += batch.length;
  return n;
});
line('generator alone (no database)', generator, alone);

if (demo > 0) {
  const db = await freshDb(`${BENCH_PREFIX}generate_demo`, placesMigrations);
  const seeded = await measure(() => seedDemo(db, demo));
  line(`demo seed on ${engine}`, seeded, seeded.result?.seeded ?? 0);
  await db.close();
}
if (count > 0) {
  const name = `${BENCH_PREFIX}generate_${count}`;
  const db = await freshDb(name, placesMigrations);
  const without = (process.env.PLACES_BENCH_WITHOUT ?? '').split(',').filter(Boolean);
  for (const index of without) await db.query(`DROP INDEX "${index.replaceAll('"', '""')}"`);
  if (without.length > 0) console.log(`without the indexes ${without.join(', ')}`);
  const written = await measure(() => generatePlaces(db, { count, seed: 'bench', batchSize: 10_000 }));
  line(`generatePlaces on ${engine}`, written, written.result.written);
  if (engine === 'PostgreSQL') {
    const server = serverCpu(name);
    console.log(
      `  PostgreSQL's CPU for it: ${server.toFixed(1)} s (${((server * 1e6) / count).toFixed(1)} µs/place)`,
    );
  }
  await db.close();
}
