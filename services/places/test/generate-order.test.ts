import { describe, expect, it } from 'vitest';
import { generatePlan } from '../src/generate/generator.ts';
import { gazetteer } from '../src/index.ts';
import { buildChains } from '../src/reference/chains.ts';
import { buildTaxonomy } from '../src/reference/taxonomy.ts';
import { haversine } from './brute-force.ts';

/**
 * Generated places are written in space order: city by city, and within a city along a Z-order curve, so that
 * places near each other share the table's pages and a search reading the nearest hundred reads a few pages
 * (bench/places-search.ts at 10M places, where the table is far larger than PostgreSQL's buffer cache).
 */
describe('the order generated places are written in', () => {
  const taxonomy = buildTaxonomy();
  const input = { seed: 'order', taxonomy, chains: buildChains(taxonomy), cities: gazetteer().cities };
  const paris = gazetteer().resolve('Paris, FR')!;
  const berlin = gazetteer().resolve('Berlin, DE')!;
  const plan = [
    { city: paris, count: 4000 },
    { city: berlin, count: 1000 },
  ];
  const chunks = [...generatePlan(input, plan, 250)];
  const places = chunks.flat();

  it('follows each city with the next, and near places with near places', () => {
    expect(places).toHaveLength(5000);
    // Berlin's band of latitude (52°) comes after Paris's (48°). (By position: a place's locality is the town
    // it lies in, Paris's suburbs included.)
    const nearer = (p: { latitude: number; longitude: number }, a: typeof paris, b: typeof paris) =>
      haversine(p.latitude, p.longitude, a.latitude, a.longitude) <
      haversine(p.latitude, p.longitude, b.latitude, b.longitude);
    expect(places.slice(0, 4000).every((p) => nearer(p, paris, berlin))).toBe(true);
    expect(places.slice(4000).every((p) => nearer(p, berlin, paris))).toBe(true);
    const gaps = places
      .slice(0, 4000)
      .slice(1)
      .map((p, i) => haversine(p.latitude, p.longitude, places[i]!.latitude, places[i]!.longitude))
      .sort((a, b) => a - b);
    const median = gaps[gaps.length >> 1]!;
    const spread = places
      .slice(0, 4000)
      .map((p) => haversine(p.latitude, p.longitude, paris.latitude, paris.longitude))
      .sort((a, b) => a - b)[2000]!;
    // A place is about as far from the one before it as from its nearest neighbours (~270 m here; 2.5 km in
    // the former order, by bands of 0.1° of latitude), where places lie kilometres from the centre (~4 km).
    expect(median).toBeLessThan(spread / 5);
  });

  it('gives a turn to the caller while a large city is made, and the same order for the same seed', () => {
    expect(chunks.filter((c) => c.length === 0).length).toBeGreaterThanOrEqual(15);
    const again = [...generatePlan(input, plan, 250)].flat();
    expect(again.map((p) => p.fsq_place_id)).toEqual(places.map((p) => p.fsq_place_id));
  });
});
