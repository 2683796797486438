import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '@cairn/kit';
import { everydayIds } from './generate/categories.ts';
import { type CityPlan, cityPicker } from './generate/generator.ts';
import { Random } from './generate/random.ts';
import { generatePlaces } from './generate/run.ts';
import { type City, gazetteer } from './reference/cities.ts';
import { claimMeta } from './store/meta.ts';

export const DEMO_SEED = 'cairn-demo';

/**
 * Places around each dense city; the first are two of each everyday category within ~1 km of the centre (a
 * normal spread of 0.8 km: one of them lies beyond 3 km once in 1,100 places, both once in a million).
 */
const PER_DENSE_CITY = 56;
const EACH_EVERYDAY = 2;
const CORE_SIGMA_KM = 0.8;
/** The share of the demo spread over the rest of the world. */
const SPARSE_SHARE = 0.1;

/** Where people look first: every national capital and the 100 most populous cities, most populous first. */
export function denseCities(cities: readonly City[]): City[] {
  const byPopulation = cities
    .filter((c) => c.capital || c.population >= 1_000_000)
    .sort((a, b) => b.population - a.population || a.id - b.id);
  const top = new Set(byPopulation.slice(0, 100));
  return byPopulation.filter((c) => c.capital || top.has(c));
}

/**
 * The demo set: dense where people look first — each dense city gets two of every everyday category (cafés,
 * restaurants, bakeries, pharmacies, supermarkets, hotels, museums, bars, fuel, bookshops…) close to its centre
 * and more around — and sparse elsewhere (a tenth of the places, around cities drawn by population). The
 * default 20,000 places make all ~300 such cities dense; a smaller `count` makes fewer, the most populous first.
 */
export function demoPlan(count: number, cities: readonly City[] = gazetteer().cities): CityPlan[] {
  const dense = denseCities(cities).slice(0, Math.floor((count * (1 - SPARSE_SHARE)) / PER_DENSE_CITY));
  const core = {
    categories: Array.from({ length: EACH_EVERYDAY }, () => everydayIds()).flat(),
    sigmaKm: CORE_SIGMA_KM,
  };
  const plan = new Map<City, CityPlan>(dense.map((city) => [city, { city, count: PER_DENSE_CITY, core }]));
  const picker = cityPicker(cities);
  const draws = new Random(`${DEMO_SEED}:sparse`);
  for (let n = count - dense.length * PER_DENSE_CITY; n > 0; n--) {
    const city = picker.pick(draws);
    const entry = plan.get(city) ?? { city, count: 0 };
    entry.count++;
    plan.set(city, entry);
  }
  return [...plan.values()];
}

/**
 * On first start, a demo set so that search answers at once. Claimed through a meta row, so it happens once per
 * installation (not again after the places are deleted) and by one process when several start together.
 */
export async function seedDemo(db: Db, count: number): Promise<{ seeded: number; ms: number } | undefined> {
  if (count <= 0) return undefined;
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM (SELECT 1 FROM places LIMIT 1) p',
  );
  if ((rows[0]?.n ?? 0) > 0) return undefined;
  if (!(await claimMeta(db, 'demo_seeded', new Date().toISOString()))) return undefined;
  const result = await generatePlaces(db, { count, seed: DEMO_SEED, plan: demoPlan(count) });
  return { seeded: result.written, ms: result.ms };
}

/**
 * A digest of the code and reference data the demo places are made from (this file, generate/ and reference/),
 * so a demo database built at install is used only by the code that would make the same places.
 */
export function demoSourcesDigest(): string {
  const hash = createHash('sha256');
  const here = import.meta.dirname;
  const files = [
    join(here, 'demo.ts'),
    ...['generate', 'reference'].flatMap((dir) =>
      readdirSync(join(here, dir), { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => join(here, dir, entry.name))
        .sort(),
    ),
  ];
  for (const file of files)
    hash.update(file.slice(here.length)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}
