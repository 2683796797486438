import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gazetteer, generatePlaces, namesOf, writePlaces } from '../src/index.ts';
import { hexId } from '../src/reference/ids.ts';
import type { SearchPlan } from '../src/search/plan.ts';
import type { PlaceRow } from '../src/store/places-read.ts';
import { searchPlaces } from '../src/store/places-search.ts';
import { bareRecord, callPlaces, nextPage, type PlacesFixture, startPlaces } from './helpers.ts';
import { judge, loadJudged, summarize } from './relevance/judge.ts';

/**
 * Search finds what people mean (issue 20 §2): categories and their synonyms in the country's languages, chain
 * names, a RELEVANCE order that mixes text, nearness and quality as documented, autocomplete's three kinds, and
 * a floor on nDCG@10 over the judged queries of the cities generated here.
 */
const CITIES = ['Paris, FR', 'Berlin, DE', 'Rome, IT', 'Madrid, ES', 'New York City, US', 'Tokyo, JP'];
let f: PlacesFixture;

const city = (name: string) => gazetteer().resolve(name)!;
const ll = (name: string) => `${city(name).latitude},${city(name).longitude}`;
const FIELDS = 'fsq_place_id,name,categories,chains,distance,popularity,rating';

beforeAll(async () => {
  f = await startPlaces();
  await generatePlaces(f.deps.db, { count: 2400, seed: 'relevance', cities: CITIES.map(city) });
}, 120_000);
afterAll(async () => {
  await f.close();
});

/** The real category ids (as answers show them) of a preset and its descendants. */
function categoryIds(...presets: string[]): Set<string> {
  const reference = f.places.deps.reference();
  return new Set(
    presets
      .flatMap((p) => reference.withDescendants(hexId('category', p)))
      .map((id) => reference.realCategory(id)?.id ?? id),
  );
}

const inCategory = (ids: Set<string>) => (r: Record<string, unknown>) =>
  (r.categories as { fsq_category_id: string }[]).some((c) => ids.has(c.fsq_category_id));

async function search(params: Record<string, string>) {
  const res = await callPlaces(f, `/places/search?${new URLSearchParams({ fields: FIELDS, ...params })}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results!;
}

describe('a query matches what places are', () => {
  it('"coffee" near Paris finds cafés', async () => {
    const results = await search({ query: 'coffee', ll: ll('Paris, FR'), radius: '5000' });
    const cafes = categoryIds('amenity/cafe', 'shop/coffee');
    expect(results.length).toBeGreaterThanOrEqual(3);
    expect(results.every(inCategory(cafes))).toBe(true);
  });

  it('finds the same cafés by "cafe", "café" and "cafes"', async () => {
    const cafes = categoryIds('amenity/cafe');
    for (const query of ['cafe', 'café', 'cafes']) {
      const results = await search({ query, ll: ll('Paris, FR'), radius: '5000' });
      expect(results.length, query).toBeGreaterThan(0);
      expect(results.filter(inCategory(cafes)).length, query).toBeGreaterThanOrEqual(results.length - 1);
    }
  });

  it('understands the language of the country searched in', async () => {
    const pharmacies = categoryIds('amenity/pharmacy');
    const apotheke = await search({ query: 'Apotheke', ll: ll('Berlin, DE'), radius: '8000' });
    expect(apotheke.length).toBeGreaterThan(0);
    expect(apotheke.every(inCategory(pharmacies))).toBe(true);
    const pharmacie = await search({ query: 'pharmacie', near: 'Paris, FR' });
    expect(pharmacie.length).toBeGreaterThan(0);
    expect(pharmacie.every(inCategory(pharmacies))).toBe(true);
    const farmacia = await search({ query: 'farmacia', ll: ll('Rome, IT'), radius: '8000' });
    expect(farmacia.length).toBeGreaterThan(0);
    expect(farmacia.every(inCategory(pharmacies))).toBe(true);
    // German is not a language of France: there "Apotheke" is only a word.
    const inParis = await search({ query: 'Apotheke', ll: ll('Paris, FR'), radius: '8000' });
    expect(inParis.filter(inCategory(pharmacies))).toEqual([]);
  });

  it('finds fuel by "gas", "petrol" and "fuel"', async () => {
    const fuel = categoryIds('amenity/fuel');
    for (const query of ['gas', 'petrol', 'fuel']) {
      const results = await search({ query, near: 'New York City, US' });
      expect(results.length, query).toBeGreaterThan(0);
      // A place with the word in its name may come first; the stations fill the page.
      expect(results.filter(inCategory(fuel)).length, query).toBeGreaterThanOrEqual(results.length / 2);
    }
  });

  it('finds a chain by its name, even where a place of it is named otherwise', async () => {
    const { rows } = await f.deps.db.query<{ fsq_place_id: string; chain: string }>(
      `SELECT fsq_place_id, fsq_chain_ids[1] AS chain FROM places
        WHERE cardinality(fsq_chain_ids) > 0 AND country = 'FR' ORDER BY fsq_place_id LIMIT 1`,
    );
    const place = rows[0]!;
    const chain = f.places.deps.reference().chains.get(place.chain)!;
    await f.deps.db.query(`UPDATE places SET name = 'Le Coin du Quartier' WHERE fsq_place_id = $1`, [
      place.fsq_place_id,
    ]);
    const results = await search({ query: chain.name, near: 'Paris, FR', limit: '50' });
    const found = results.find((r) => r.fsq_place_id === place.fsq_place_id);
    expect(found, `${chain.name} in ${JSON.stringify(results.map((r) => r.name))}`).toBeDefined();
    expect((found!.chains as { name: string }[]).map((c) => c.name)).toContain(chain.name);
  });
});

describe('sort=RELEVANCE', () => {
  it('puts a place named exactly as the query first', async () => {
    const { rows } = await f.deps.db.query<{ name: string }>(
      `SELECT name FROM places WHERE locality = 'Berlin' ORDER BY popularity DESC NULLS LAST, fsq_place_id LIMIT 5`,
    );
    for (const { name } of rows) {
      const results = await search({ query: name, near: 'Berlin, DE' });
      expect(results[0]!.name, name).toBe(name);
    }
  });

  it('orders category matches by nearness and quality, as documented', async () => {
    // Places matched only through their category (no word of the query in the name) score
    // 0.6 × 0.7 + 0.3 × 1 km / (1 km + distance) + 0.05 × (popularity + rating / 10).
    const results = await search({ query: 'coffee', ll: ll('Paris, FR'), radius: '20000', limit: '50' });
    const byCategory = results.filter((r) => !/caf|cof|kaf/i.test(r.name as string));
    expect(byCategory.length).toBeGreaterThan(2);
    const score = (r: Record<string, unknown>) =>
      0.42 +
      (0.3 * 1000) / (1000 + (r.distance as number)) +
      0.05 * (((r.popularity as number) ?? 0) + ((r.rating as number) ?? 0) / 10);
    const scores = byCategory.map(score);
    for (let i = 1; i < scores.length; i++) expect(scores[i]!).toBeLessThanOrEqual(scores[i - 1]! + 0.002);
  });

  it('still finds a place by its name with a letter missing, after the places matching the query as written', async () => {
    const { rows } = await f.deps.db.query<{ name: string }>(
      `SELECT name FROM places WHERE locality = 'Rome' AND length(name) >= 12 ORDER BY fsq_place_id LIMIT 5`,
    );
    for (const { name } of rows) {
      const typo = name.slice(0, 3) + name.slice(4); // "Trattoria Roma" → "Tratoria Roma"
      const results = await search({ query: typo, near: 'Rome, IT', limit: '50' });
      expect(
        results.map((r) => r.name),
        typo,
      ).toContain(name);
    }
  });

  it('ranks the places matching the query as written first, then the approximate ones, and pages through both', async () => {
    // Around Florence (no generated places): "Fiorentina …" holds the query; "Fiorentino …", nearer, only
    // resembles it.
    const at = (i: number, name: string, km: number) => ({
      ...bareRecord(`relevance-florence-${i}`, name, 43.7696 + km / 111, 11.2558),
      locality: 'Firenze',
      country: 'IT',
      time_zone: 'Europe/Rome',
    });
    await writePlaces(
      f.deps.db,
      [
        ...Array.from({ length: 5 }, (_, i) => at(i, `Fiorentina ${i}`, 2 + i)),
        ...Array.from({ length: 5 }, (_, i) => at(10 + i, `Fiorentino ${i}`, 0.1 * i)),
      ],
      namesOf(f.places.deps.reference()),
    );
    const params = { query: 'fiorentina', ll: '43.7696,11.2558', radius: '20000' };
    const whole = await search({ ...params, limit: '50' });
    expect(whole.map((r) => r.name)).toEqual([
      ...['Fiorentina 0', 'Fiorentina 1', 'Fiorentina 2', 'Fiorentina 3', 'Fiorentina 4'],
      ...['Fiorentino 0', 'Fiorentino 1', 'Fiorentino 2', 'Fiorentino 3', 'Fiorentino 4'],
    ]);
    // Pages of 3: the second ends, and the fourth begins, among the approximate matches.
    const paged: unknown[] = [];
    let page = await callPlaces(
      f,
      `/places/search?${new URLSearchParams({ fields: FIELDS, ...params, limit: '3' })}`,
    );
    for (;;) {
      expect(page.status).toBe(200);
      paged.push(...page.body.results!.map((r) => r.name));
      const next = nextPage(page.headers);
      if (!next) break;
      page = await callPlaces(f, next);
    }
    expect(paged).toEqual(whole.map((r) => r.name));
  });
});

describe('the window of the nearest matches', () => {
  // Eight "Zanzibarina" places 4 to 11 km north of a point with no other match, the farther ones the more
  // popular and better rated, so that by score alone the farthest comes first; the fourth and fifth share a
  // point; every other one has a price. With a window of 4, the matches nearer than the fifth nearest are
  // ranked first (the fourth is tied with the fifth, so only three are), then the rest, each set by score.
  const origin = { latitude: 44.2, longitude: 11.9 };
  const km = [4, 5, 6, 7, 7, 9, 10, 11];
  const id = (i: number) => `window-${i}`;

  beforeAll(async () => {
    await writePlaces(
      f.deps.db,
      km.map((d, i) => ({
        ...bareRecord(id(i), `Zanzibarina ${i}`, origin.latitude + d / 111, origin.longitude),
        popularity: i / 7,
        rating: 2 + i,
        price: i % 2 === 0 ? 2 : null,
      })),
      namesOf(f.places.deps.reference()),
    );
  });

  /** Every page of `size`, as search.ts pages: after the last row's key and id, in its set. */
  async function allPages(plan: SearchPlan, size: number): Promise<PlaceRow[]> {
    const rows: PlaceRow[] = [];
    let after: SearchPlan['after'];
    for (;;) {
      const page = await searchPlaces(f.deps.db, { ...plan, limit: size + 1, ...(after ? { after } : {}) });
      rows.push(...page.slice(0, size));
      if (page.length <= size) return rows;
      const last = page[size - 1]!;
      after = { key: last.sort_key!, id: last.fsq_place_id, ...(last.tier ? { tier: last.tier } : {}) };
    }
  }

  const plan: SearchPlan = {
    origin,
    circle: { center: origin, radius: 20_000 },
    query: 'zanzibarina',
    order: 'relevance',
    categoryIds: [],
    chainIds: [],
    excludeChainIds: [],
    excludeAllChains: false,
    limit: 11,
  };

  it('ranks the whole area by score when it holds no more matches than the window', async () => {
    const rows = await allPages({ ...plan, window: 8 }, 50);
    expect(rows.map((r) => r.fsq_place_id)).toEqual([7, 6, 5, 4, 3, 2, 1, 0].map(id));
    expect(rows.every((r) => r.tier === undefined)).toBe(true);
  });

  it('ranks the nearest first, then the rest, on every page size, without gaps or repeats', async () => {
    const expected = [...[2, 1, 0], ...[7, 6, 5, 4, 3]].map(id);
    for (const size of [1, 2, 3, 50]) {
      const rows = await allPages({ ...plan, window: 4 }, size);
      expect(
        rows.map((r) => r.fsq_place_id),
        `pages of ${size}`,
      ).toEqual(expected);
      expect(rows.map((r) => r.tier ?? 'window')).toEqual([
        ...Array(3).fill('window'),
        ...Array(5).fill('beyond'),
      ]);
    }
  });

  it('counts the window among the places that pass the other filters', async () => {
    // With a price: 0, 2, 4 and 6, at 4, 6, 7 and 10 km; the window of 2 is the two nearer than the third.
    const rows = await allPages({ ...plan, window: 2, minPrice: 1 }, 1);
    expect(rows.map((r) => r.fsq_place_id)).toEqual([2, 0, 6, 4].map(id));
  });
});

describe('autocomplete', () => {
  it('returns places, categories and geographies', async () => {
    const { rows } = await f.deps.db.query<{ fsq_place_id: string }>(
      `SELECT fsq_place_id FROM places WHERE locality = 'Paris' ORDER BY fsq_place_id LIMIT 1`,
    );
    await f.deps.db.query(
      `UPDATE places SET name = 'Parc Café', search_text = 'parc café' WHERE fsq_place_id = $1`,
      [rows[0]!.fsq_place_id],
    );
    const res = await callPlaces(f, `/autocomplete?query=Par&ll=${ll('Paris, FR')}`);
    expect(res.status).toBe(200);
    const results = res.body.results as { type: string; text: { primary: string } }[];
    expect(results.filter((r) => r.type === 'place').map((r) => r.text.primary)).toContain('Parc Café');
    expect(results.filter((r) => r.type === 'search').map((r) => r.text.primary)).toContain('Park');
    expect(results.find((r) => r.type === 'geo')?.text.primary).toBe('Paris');
  });

  it('suggests the category a synonym names', async () => {
    const res = await callPlaces(f, `/autocomplete?query=coffee&ll=${ll('Paris, FR')}&types=search`);
    expect(res.status).toBe(200);
    const searches = res.body.results as {
      search: { category?: { fsq_category_id: string; name: string } };
    }[];
    // As the real taxonomy names it, with the id fsq_category_ids takes.
    expect(searches.map((s) => s.search.category)).toContainEqual({
      fsq_category_id: '4bf58dd8d48988d16d941735',
      name: 'Café',
    });
  });
});

describe('the judged queries', () => {
  // Measured 0.834 over 83 queries on both engines (2,400 places around the six cities); the search before
  // synonyms and chains found no place for most category queries.
  it('keep nDCG@10 above the floor measured on this data', async () => {
    const queries = loadJudged().filter((q) => CITIES.includes(q.city));
    const judgements = [];
    for (const q of queries) {
      judgements.push(
        await judge(
          {
            db: f.deps.db,
            reference: f.places.deps.reference(),
            gazetteer: gazetteer(),
            async search(params) {
              const res = await callPlaces(f, `/places/search?${new URLSearchParams(params)}`);
              expect(res.status).toBe(200);
              return res.body.results!;
            },
          },
          q,
        ),
      );
    }
    const summary = summarize(judgements);
    expect(summary.scored).toBeGreaterThan(60);
    expect(
      summary.overall,
      JSON.stringify(summary.worst.map((j) => [j.query, j.city, j.ndcg])),
    ).toBeGreaterThan(0.75);
  });
});
