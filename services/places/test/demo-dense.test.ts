import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_COUNT, demoPlan, denseCities, QUERY_KINDS } from '../src/demo.ts';
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
    // The whole plan of the cities searched; a few places elsewhere for the address formats.
    const searched = new Set([...CITIES, 'London, GB'].map((name) => gazetteer().resolve(name)!.id));
    const formatted = FORMATTED.map(([name]) => gazetteer().resolve(name)!).filter(
      (c) => !searched.has(c.id),
    );
    await generatePlaces(f.deps.db, {
      count: 0,
      seed: 'demo',
      plan: [
        ...plan.filter((p) => searched.has(p.city.id)),
        ...formatted.map((city) => ({ city, count: 60 })),
      ],
    });
  }, 400_000);
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

  // The 100 most populous cities (Tokyo, São Paulo, Lagos here) and the capitals of a million people (Paris):
  // at least five answers to each kind people search for most, by the words they type, within 3 km.
  it.each(['Tokyo, JP', 'São Paulo, BR', 'Lagos, NG', 'Paris, FR'])(
    'answers each of the 50 everyday queries with five places in %s',
    async (name) => {
      const city = gazetteer().resolve(name)!;
      const short: string[] = [];
      for (const { query } of QUERY_KINDS) {
        const { status, body } = await callPlaces(
          f,
          `/places/search?query=${encodeURIComponent(query)}&ll=${city.latitude},${city.longitude}&radius=3000&limit=10`,
        );
        expect(status).toBe(200);
        if (body.results!.length < 5) short.push(`${query}: ${body.results!.length}`);
      }
      expect(short).toEqual([]);
    },
  );

  it('finds the chains that operate there by name: Starbucks near London and in Tokyo', async () => {
    for (const name of ['London, GB', 'Tokyo, JP']) {
      const city = gazetteer().resolve(name)!;
      const { body } = await callPlaces(
        f,
        `/places/search?query=starbucks&ll=${city.latitude},${city.longitude}&radius=5000&limit=10`,
      );
      expect(body.results!.filter((r) => r.name === 'Starbucks').length, name).toBeGreaterThanOrEqual(3);
    }
  });

  it('finds a place by its telephone number in E.164 and in national form', async () => {
    const city = gazetteer().resolve('Paris, FR')!;
    const { body } = await callPlaces(
      f,
      `/places/search?ll=${city.latitude},${city.longitude}&radius=3000&limit=50&fields=fsq_place_id,tel`,
    );
    const place = body.results!.find(
      (r) => typeof r.tel === 'string' && /^(\+33|0)\d{9}$/.test(r.tel as string),
    );
    expect(place).toBeDefined();
    const national = `0${(place!.tel as string).slice(-9)}`;
    const e164 = `+33${national.slice(1)}`;
    const spaced = national.replace(/(\d\d)(?=\d)/g, '$1 ');
    for (const query of [e164, national, spaced]) {
      const { status, body: found } = await callPlaces(
        f,
        `/places/search?query=${encodeURIComponent(query)}&ll=${city.latitude},${city.longitude}&radius=20000&fields=fsq_place_id`,
      );
      expect(status).toBe(200);
      expect(
        found.results!.map((r) => r.fsq_place_id),
        query,
      ).toContain(place!.fsq_place_id);
    }
  });
});
