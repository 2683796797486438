import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPlaces, haversine, localMinute, openAt, type Plain } from './brute-force.ts';
import { callPlaces, everyPage, type PlacesFixture, startPlaces } from './helpers.ts';

/**
 * The real category taxonomy over HTTP (issue 41 §2): fsq_category_ids takes the real ids in both forms, a
 * parent matching the categories below it; answers carry the real ids; an unknown id and the v3 parameter
 * names are 400s naming the parameter; GET /places/categories lists the taxonomy.
 */
let f: PlacesFixture;
let all: Plain[];
const PARIS = { lat: 48.8566, lon: 2.3522 };
const AROUND = `ll=${PARIS.lat},${PARIS.lon}&radius=15000&limit=50`;
const DINING = '63be6904847c3692a84b9bb5';
const CAFE_COFFEE_TEA = '63be6904847c3692a84b9bb6';
const CAFE = '4bf58dd8d48988d16d941735';
const COFFEE_SHOP = '4bf58dd8d48988d1e0931735';

beforeAll(async () => {
  f = await startPlaces({ count: 1500 });
  all = await allPlaces(f.deps.db);
}, 120_000);
afterAll(async () => {
  await f.close();
});

/** The places within 15 km of Paris whose stored categories are the real category or one below it. */
function expectedIn(realId: string, keep: (p: Plain) => boolean = () => true): Set<string> {
  const reference = f.places.deps.reference();
  const under = new Set(reference.fsq.withDescendants(realId));
  return new Set(
    all
      .filter((p) => haversine(PARIS.lat, PARIS.lon, p.lat, p.lon) <= 15_000)
      .filter((p) => p.categories.some((c) => under.has(reference.realCategory(c)?.id ?? '')))
      .filter(keep)
      .map((p) => p.id),
  );
}

describe('fsq_category_ids takes the real taxonomy’s ids', () => {
  it('in both forms, a top-level category matching everything below it', async () => {
    const expected = expectedIn(DINING);
    expect(expected.size).toBeGreaterThan(50);
    const byHex = await everyPage(f, `/places/search?${AROUND}&fsq_category_ids=${DINING}`);
    const byNumber = await everyPage(f, `/places/search?${AROUND}&fsq_category_ids=13000`);
    expect(new Set(byHex)).toEqual(expected);
    expect(byNumber).toEqual(byHex);
    const upper = await everyPage(f, `/places/search?${AROUND}&fsq_category_ids=${DINING.toUpperCase()}`);
    expect(upper).toEqual(byHex);
  });

  it('Coffee Shop (13035) finds coffee shops; its parent (13032) finds them and cafés', async () => {
    const coffee = await everyPage(f, `/places/search?${AROUND}&fsq_category_ids=${COFFEE_SHOP}`);
    expect(coffee.length).toBeGreaterThan(0);
    expect(new Set(coffee)).toEqual(expectedIn(COFFEE_SHOP));
    expect(await everyPage(f, `/places/search?${AROUND}&fsq_category_ids=13035`)).toEqual(coffee);
    const parent = await everyPage(f, `/places/search?${AROUND}&fsq_category_ids=13032`);
    expect(new Set(parent)).toEqual(expectedIn(CAFE_COFFEE_TEA));
    expect(parent).toEqual(expect.arrayContaining(coffee));
    expect(parent).toEqual(expect.arrayContaining([...expectedIn(CAFE)]));
    expect(parent.length).toBeGreaterThan(coffee.length);
  });

  it('with open_now, the same places as the taxonomy and each place’s own hours say', async () => {
    const now = f.clock.now();
    const expected = expectedIn(DINING, (p) => openAt(p.hours, localMinute(now, p.timeZone)));
    expect(expected.size).toBeGreaterThan(0);
    const found = await everyPage(f, `/places/search?${AROUND}&fsq_category_ids=13000&open_now=true`);
    expect(new Set(found)).toEqual(expected);
  });

  it('answers each place’s categories with the real ids, names and plurals', async () => {
    const res = await callPlaces(f, `/places/search?${AROUND}&fsq_category_ids=13035&fields=categories`);
    expect(res.status).toBe(200);
    const taxonomy = f.places.deps.reference().fsq;
    for (const place of res.body.results!) {
      const categories = place.categories as { fsq_category_id: string; name: string }[];
      for (const c of categories) expect(taxonomy.byId.get(c.fsq_category_id)?.name).toBe(c.name);
      expect(categories).toContainEqual(
        expect.objectContaining({
          fsq_category_id: COFFEE_SHOP,
          name: 'Coffee Shop',
          short_name: 'Coffee Shop',
          plural_name: 'Coffee Shops',
        }),
      );
    }
  });

  it('refuses an id that names no category with a 400 naming the parameter and the id', async () => {
    for (const id of ['ffffffffffffffffffffffff', '99999', 'coffee']) {
      const res = await callPlaces(f, `/places/search?${AROUND}&fsq_category_ids=13035,${id}`);
      expect(res.status, id).toBe(400);
      expect(res.body.message).toMatch(/^Invalid fsq_category_ids: /);
      expect(res.body.message).toContain(`"${id}"`);
    }
  });
});

describe('edits take the real ids too', () => {
  async function suggestDry(id: string, query: Record<string, string>) {
    const qs = new URLSearchParams({ ...query, dry_run: 'true' });
    const res = await fetch(`${f.baseUrl}/places/${id}/suggest/edit?${qs}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.serviceKey}`, 'x-places-api-version': '2025-06-17' },
    });
    return { status: res.status, body: (await res.json()) as { message?: string } };
  }

  it('adds a category by its number and removes one by the real id answers show', async () => {
    const reference = f.places.deps.reference();
    const place = all.find((p) => p.categories.length === 1 && reference.realCategory(p.categories[0]!))!;
    const shown = reference.realCategory(place.categories[0]!)!.id;
    expect((await suggestDry(place.id, { add_fsq_category_ids: '13035' })).status).toBe(200);
    expect(
      (await suggestDry(place.id, { remove_fsq_category_ids: shown, add_fsq_category_ids: DINING })).status,
    ).toBe(200);
    const other = shown === COFFEE_SHOP ? CAFE : COFFEE_SHOP;
    const refused = await suggestDry(place.id, { remove_fsq_category_ids: other });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^Invalid remove_fsq_category_ids: the place has no category/);
    const unknown = await suggestDry(place.id, { add_fsq_category_ids: '99999' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/^Invalid add_fsq_category_ids: no category has id "99999"/);
  });
});

describe('the parameter names of earlier versions', () => {
  it('are 400s naming the parameter and its replacement, not silently ignored', async () => {
    const cases = [
      ['categories', COFFEE_SHOP, 'fsq_category_ids'],
      ['chains', 'ab12', 'fsq_chain_ids'],
      ['exclude_chains', 'ab12', 'exclude_fsq_chain_ids'],
      ['polygon', '1,2~3,4~5,6~1,2', 'ne and sw'],
    ] as const;
    for (const [name, value, replacement] of cases) {
      const res = await callPlaces(f, `/places/search?${AROUND}&${name}=${value}`);
      expect(res.status, name).toBe(400);
      expect(res.body.message).toMatch(new RegExp(`^Invalid ${name}: not a parameter of the 2025-06-17 API`));
      expect(res.body.message).toContain(replacement);
    }
  });
});

describe('GET /places/categories', () => {
  it('lists the taxonomy with both ids, names, labels, levels and parents', async () => {
    const res = await callPlaces(f, '/places/categories');
    expect(res.status).toBe(200);
    const categories = res.body.categories as Record<string, unknown>[];
    expect(categories).toHaveLength(1245);
    expect(categories).toContainEqual({
      fsq_category_id: COFFEE_SHOP,
      numeric_id: '13035',
      name: 'Coffee Shop',
      label: 'Dining and Drinking > Cafe, Coffee, and Tea House > Coffee Shop',
      level: 3,
      parent_id: CAFE_COFFEE_TEA,
    });
    expect(categories.filter((c) => c.level === 1).length).toBeGreaterThanOrEqual(10);
  });

  it('asks for a credential and the version header like every places call', async () => {
    expect((await callPlaces(f, '/places/categories', { token: null })).status).toBe(401);
    expect((await callPlaces(f, '/places/categories', { version: null })).status).toBe(400);
  });
});
