import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '@cairn/kit';
import { type CityPlan, cityPicker, MAJOR_CHAINS_PER_CITY } from './generate/generator.ts';
import { Random } from './generate/random.ts';
import { generatePlaces } from './generate/run.ts';
import { type City, gazetteer } from './reference/cities.ts';
import { hexId } from './reference/ids.ts';
import { claimMeta } from './store/meta.ts';

export const DEMO_SEED = 'cairn-demo';

/**
 * The kinds of place people search for most, each with the category its demo places have (a query names it:
 * search-terms.json; "coffee" names cafés, of which coffee shops are one).
 */
export const QUERY_KINDS: readonly { query: string; preset: string }[] = [
  ['pizza', 'amenity/restaurant/pizza'],
  ['sushi', 'amenity/restaurant/sushi'],
  ['coffee', 'amenity/cafe/coffee_shop'],
  ['pharmacy', 'amenity/pharmacy'],
  ['gas station', 'amenity/fuel'],
  ['supermarket', 'shop/supermarket'],
  ['hotel', 'tourism/hotel'],
  ['museum', 'tourism/museum'],
  ['bakery', 'shop/bakery'],
  ['atm', 'amenity/atm'],
  ['restaurant', 'amenity/restaurant'],
  ['bar', 'amenity/bar'],
  ['pub', 'amenity/pub'],
  ['burger', 'amenity/fast_food/burger'],
  ['chinese restaurant', 'amenity/restaurant/chinese'],
  ['indian restaurant', 'amenity/restaurant/indian'],
  ['italian restaurant', 'amenity/restaurant/italian'],
  ['thai restaurant', 'amenity/restaurant/thai'],
  ['mexican restaurant', 'amenity/restaurant/mexican'],
  ['ramen', 'amenity/restaurant/ramen'],
  ['kebab', 'amenity/fast_food/kebab'],
  ['ice cream', 'amenity/ice_cream'],
  ['bank', 'amenity/bank'],
  ['hospital', 'amenity/hospital'],
  ['doctor', 'amenity/doctors'],
  ['dentist', 'amenity/dentist'],
  ['post office', 'amenity/post_office'],
  ['parking', 'amenity/parking'],
  ['park', 'leisure/park'],
  ['gym', 'leisure/fitness_centre'],
  ['cinema', 'amenity/cinema'],
  ['library', 'amenity/library'],
  ['bookstore', 'shop/books'],
  ['clothing store', 'shop/clothes'],
  ['shoe store', 'shop/shoes'],
  ['convenience store', 'shop/convenience'],
  ['hair salon', 'shop/hairdresser'],
  ['laundry', 'shop/laundry'],
  ['car rental', 'amenity/car_rental'],
  ['hostel', 'tourism/hostel'],
  ['florist', 'shop/florist'],
  ['optician', 'shop/optician'],
  ['electronics', 'shop/electronics'],
  ['hardware store', 'shop/hardware'],
  ['veterinarian', 'amenity/veterinary'],
  ['nightclub', 'amenity/nightclub'],
  ['butcher', 'shop/butcher'],
  ['shopping mall', 'shop/mall'],
  ['theater', 'amenity/theatre'],
  ['steakhouse', 'amenity/restaurant/steakhouse'],
].map(([query, preset]) => ({ query: query!, preset: preset! }));

/** The most populous cities, each with places of every query kind near its centre. */
const TOP_CITIES = 100;
/**
 * Per top city: six of each kind within 2.5 km of the centre (normal spread 1.2 km, farther draws redrawn),
 * so a search there finds at least five of each however the centre is taken; four of each major chain
 * operating in the country (chains.ts); and places of any kind over the whole city.
 */
const TOP_CITY = { perKind: 6, perChain: 4, rest: 80 };
/**
 * Per capital of a million people or more (Rome, Paris, Madrid… are not among the 100 most populous cities):
 * five of each kind within 2.5 km, three of each major chain, more around.
 */
const LARGE_CAPITAL = { perKind: 5, perChain: 3, rest: 20 };
/** Per other capital: one of each kind near the centre, and more over the city. */
const CAPITAL = { perKind: 1, perChain: 0, rest: 20 };
const CORE = { sigmaKm: 1.2, maxKm: 2.5 };
/** The share of the demo spread over the rest of the world. */
const SPARSE_SHARE = 0.08;
/** The default demo: what the plan above needs (PLACES_DEMO_COUNT's default). */
export const DEMO_COUNT = 80_000;

/** Where people look first: the 100 most populous cities and every national capital, most populous first. */
export function denseCities(cities: readonly City[]): City[] {
  const byPopulation = cities
    .filter((c) => c.capital || c.population >= 1_000_000)
    .sort((a, b) => b.population - a.population || a.id - b.id);
  const top = new Set(byPopulation.slice(0, TOP_CITIES));
  return byPopulation.filter((c) => c.capital || top.has(c));
}

const kindIds = (perKind: number): string[] =>
  Array.from({ length: perKind }, () => QUERY_KINDS.map((k) => hexId('category', k.preset))).flat();

/**
 * The demo set: dense where people look first — each of the 100 most populous cities gets six places of each of
 * the 50 kinds people search for most near its centre, four of each major chain of its country and more
 * around; each capital of a million people five of each kind, each other capital one — and sparse elsewhere
 * (the rest, around cities drawn
 * by population). A smaller `count` makes fewer cities dense, the most populous first.
 */
export function demoPlan(count: number, cities: readonly City[] = gazetteer().cities): CityPlan[] {
  const ranked = denseCities(cities);
  const top = new Set(
    [...ranked]
      .sort((a, b) => b.population - a.population)
      .slice(0, TOP_CITIES)
      .map((c) => c.id),
  );
  const plan = new Map<City, CityPlan>();
  let budget = Math.floor(count * (1 - SPARSE_SHARE));
  for (const city of ranked) {
    const shape = top.has(city.id) ? TOP_CITY : city.population >= 1_000_000 ? LARGE_CAPITAL : CAPITAL;
    const categories = kindIds(shape.perKind);
    // Room for up to MAJOR_CHAINS_PER_CITY chains; the places not taken by chains are of any kind.
    const size = categories.length + shape.perChain * MAJOR_CHAINS_PER_CITY + shape.rest;
    if (size > budget) break;
    budget -= size;
    plan.set(city, { city, count: size, core: { categories, ...CORE, perChain: shape.perChain } });
  }
  const picker = cityPicker(cities);
  const draws = new Random(`${DEMO_SEED}:sparse`);
  const planned = [...plan.values()].reduce((sum, p) => sum + p.count, 0);
  for (let n = count - planned; n > 0; n--) {
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
