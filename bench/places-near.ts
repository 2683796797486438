// How well `near` geocodes: the share of bench/data/places-near.json's 500 inputs (the largest cities of 40
// countries by name, "name, CC" and "name, country"; native names and scripts, former and foreign names, US
// states and Canadian provinces, neighbourhoods) that resolve to the expected GeoNames place (the same
// geonameid, or a centre within 10 km), by kind; the resolve time per input (p50 and p99 of each of 20 rounds
// after a warm-up round, their medians printed); the first-use cost of the table (time, memory); and each miss.
//   npx tsx bench/places-near.ts
import { readFileSync } from 'node:fs';
import { geocoder } from '../services/places/src/geocode/geocoder.ts';
import { type City, gazetteer } from '../services/places/src/reference/cities.ts';

interface Expected {
  geonameid: number;
  name: string;
  country: string;
  latitude: number;
  longitude: number;
}
interface Input {
  input: string;
  kind: string;
  expect: Expected;
}

const ROUNDS = 20;
const { inputs } = JSON.parse(readFileSync(new URL('./data/places-near.json', import.meta.url), 'utf8')) as {
  inputs: Input[];
};

function kilometres(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
    Math.cos(a.latitude * rad) *
      Math.cos(b.latitude * rad) *
      Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return 12_742 * Math.asin(Math.sqrt(h));
}

function isRight(found: City | undefined, expected: Expected): boolean {
  return found !== undefined && (found.id === expected.geonameid || kilometres(found, expected) <= 10);
}

const places = gazetteer();
const memoryBefore = process.memoryUsage();
let started = performance.now();
const near = geocoder(places);
near.resolve('Tartu');
const loadMs = performance.now() - started;
const memoryAfter = process.memoryUsage();

const byKind = new Map<string, { right: number; all: number }>();
const misses: string[] = [];
for (const { input, kind, expect } of inputs) {
  const found = near.resolve(input);
  const tally = byKind.get(kind) ?? { right: 0, all: 0 };
  tally.all++;
  if (isRight(found, expect)) tally.right++;
  else
    misses.push(
      `  ${JSON.stringify(input)} → ${found ? `${found.name}, ${found.region ?? ''}, ${found.country} (${found.id})` : 'nothing'}; expected ${expect.name}, ${expect.country} (${expect.geonameid})`,
    );
  byKind.set(kind, tally);
}

/** The p50 and p99 of each round (500 calls), so a stall of the shared machine spoils one round, not the figure. */
const p50s: number[] = [];
const p99s: number[] = [];
let slowest = 0;
for (let round = 0; round < ROUNDS; round++) {
  const times: number[] = [];
  for (const { input } of inputs) {
    started = performance.now();
    near.resolve(input);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  p50s.push(times[Math.floor(0.5 * times.length)]!);
  p99s.push(times[Math.floor(0.99 * times.length)]!);
  slowest = Math.max(slowest, times[times.length - 1]!);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const micro = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;

const right = inputs.length - misses.length;
console.log(
  `near: ${right}/${inputs.length} resolved right (${((100 * right) / inputs.length).toFixed(1)}%); resolve p50 ${micro(median(p50s))}, p99 ${micro(median(p99s))} (medians of ${ROUNDS} rounds of ${inputs.length}; slowest call ${micro(slowest)})`,
);
console.log(
  `table on first use: ${loadMs.toFixed(0)} ms, +${((memoryAfter.rss - memoryBefore.rss) / 1e6).toFixed(1)} MB RSS (+${((memoryAfter.arrayBuffers - memoryBefore.arrayBuffers) / 1e6).toFixed(1)} MB in buffers)`,
);
for (const [kind, { right: r, all }] of [...byKind].sort((a, b) => b[1].all - a[1].all))
  console.log(
    `  ${kind.padEnd(28)} ${String(r).padStart(3)}/${String(all).padEnd(3)} ${((100 * r) / all).toFixed(0)}%`,
  );
if (misses.length > 0) console.log(`misses:\n${misses.join('\n')}`);
