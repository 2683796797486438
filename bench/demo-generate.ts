// The first start's demo data: how long its plan and its places take to make in memory (no database), medians
// of rounds, and what the default plan holds. The database side is timed by scripts/build-demo-database.ts
// (the install step) and bench/first-start.ts (spawn to /readyz on a new data directory).
//   node --import tsx bench/demo-generate.ts [rounds=3]
import { DEMO_COUNT, demoPlan } from '../services/places/src/demo.ts';
import { generatePlan } from '../services/places/src/generate/generator.ts';
import { buildChains } from '../services/places/src/reference/chains.ts';
import { gazetteer } from '../services/places/src/reference/cities.ts';
import { buildTaxonomy } from '../services/places/src/reference/taxonomy.ts';

const rounds = Number(process.argv[2] ?? 3);
const taxonomy = buildTaxonomy();
const chains = buildChains(taxonomy);
const cities = gazetteer().cities;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const planMs: number[] = [];
const makeMs: number[] = [];
const cpuMs: number[] = [];
let count = 0;
let dense = 0;
for (let round = 0; round < rounds; round++) {
  let started = performance.now();
  const plan = demoPlan(DEMO_COUNT, cities);
  planMs.push(performance.now() - started);
  dense = plan.filter((p) => p.core).length;
  started = performance.now();
  const cpu = process.cpuUsage();
  count = 0;
  for (const chunk of generatePlan({ seed: 'cairn-demo', taxonomy, chains, cities }, plan, 5000))
    count += chunk.length;
  const used = process.cpuUsage(cpu);
  makeMs.push(performance.now() - started);
  cpuMs.push((used.user + used.system) / 1000);
}
process.stdout.write(
  `demo: ${count.toLocaleString('en-US')} places, ${dense} dense cities\n` +
    `plan: median ${median(planMs).toFixed(0)} ms; places: median ${(median(makeMs) / 1000).toFixed(2)} s wall, ${(median(cpuMs) / 1000).toFixed(2)} s CPU (${((median(cpuMs) * 1000) / count).toFixed(1)} µs CPU a place) over ${rounds} rounds\n`,
);
