import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_COUNT, demoPlan, denseCities } from '../src/demo.ts';
import { EVERYDAY } from '../src/generate/categories.ts';
import { gazetteer, generatePlaces } from '../src/index.ts';
import { hexId } from '../src/reference/ids.ts';
import { callPlaces, type PlacesFixture, startPlaces } from './helpers.ts';

/**
 * The first start's demo set is dense where people look first: around the centre of every capital and of the
 * largest cities, a search within 3 km finds each everyday kind of place. The plan of the default demo
 * (DEMO_COUNT places) is written for six of its cities and searched through the API; their addresses are formatted as
 * people write them there.
 */
const CITIES = ['Paris, FR', 'Tokyo, JP', 'Lagos, NG', 'São Paulo, BR'];
const FORMATTED: [string, RegExp][] = [
  ['Paris, FR', /, 750\d\d Paris$/],
  ['London, GB', /, London [A-Z]{1,2}\d/],
  ['Chicago, US', /, Chicago, IL 606\d\d$/],
  ['Tokyo, JP', /^〒\d{3}-\d{4} Tokyo /],
];

describe('the dense demo', () => {
  let f: PlacesFixture;
  const plan = demoPlan(DEMO_COUNT);

  beforeAll(async () => {
    f = await startPlaces();
    const names = [...CITIES, ...FORMATTED.map(([name]) => name)];
    const wanted = new Set(names.map((name) => gazetteer().resolve(name)!.id));
    await generatePlaces(f.deps.db, {
      count: 0,
      seed: 'demo',
      plan: plan.filter((p) => wanted.has(p.city.id)),
    });
  }, 180_000);
  afterAll(() => f?.close());

  it('makes every capital and the 100 most populous cities dense, and the rest of the world sparse', () => {
    const dense = denseCities(gazetteer().cities);
    const densePlanned = plan.filter((p) => p.core);
    expect(densePlanned.map((p) => p.city.id).sort()).toEqual(dense.map((c) => c.id).sort());
    expect(dense.filter((c) => c.capital).length).toBeGreaterThan(200);
    for (const name of CITIES) expect(dense.map((c) => c.id)).toContain(gazetteer().resolve(name)!.id);
    expect(plan.reduce((sum, p) => sum + p.count, 0)).toBe(DEMO_COUNT);
    expect(plan.filter((p) => !p.core).length).toBeGreaterThan(1000);
  });

  it.each(CITIES)('finds each everyday category within 3 km of the centre of %s', async (name) => {
    const city = gazetteer().resolve(name)!;
    const missing: string[] = [];
    for (const preset of EVERYDAY) {
      const { status, body } = await callPlaces(
        f,
        `/places/search?ll=${city.latitude},${city.longitude}&radius=3000&fsq_category_ids=${hexId('category', preset)}&limit=5`,
      );
      expect(status).toBe(200);
      if (body.results!.length === 0) missing.push(preset);
    }
    expect(missing).toEqual([]);
  });

  it.each(FORMATTED)('formats addresses in %s as people write them there', async (name, shape) => {
    const city = gazetteer().resolve(name)!;
    const { status, body } = await callPlaces(
      f,
      `/places/search?ll=${city.latitude},${city.longitude}&radius=20000&limit=50`,
    );
    expect(status).toBe(200);
    const formatted = body
      .results!.map((r) => r.location as { locality?: string; address?: string; formatted_address?: string })
      .filter((l) => l.locality === city.name && l.address)
      .map((l) => l.formatted_address);
    expect(formatted.length).toBeGreaterThan(0);
    for (const text of formatted) expect(text).toMatch(shape);
  });
});
