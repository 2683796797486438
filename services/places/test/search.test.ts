import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchQuery } from '../src/routes/validation.ts';
import { PREMIUM_FIELDS, PRO_FIELDS } from '../src/search/fields.ts';
import { search } from '../src/search/search.ts';
import { PLACE_COLUMNS, placeColumnsFor } from '../src/store/places-read.ts';
import { allPlaces, haversine, localMinute, openAt, type Plain } from './brute-force.ts';
import { callPlaces, nextPage, type PlacesFixture, startPlaces } from './helpers.ts';

let f: PlacesFixture;
let all: Plain[];
const PARIS = { lat: 48.8566, lon: 2.3522 };

beforeAll(async () => {
  f = await startPlaces({ count: 1500 });
  all = await allPlaces(f.deps.db);
}, 120_000);
afterAll(async () => {
  await f.close();
});

/** Follows Link headers to the end; returns every result in order. */
async function everyPage(first: string) {
  const results: Record<string, unknown>[] = [];
  let url: string | undefined = first;
  let pages = 0;
  while (url) {
    const res = await callPlaces(f, url);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    results.push(...res.body.results!);
    url = nextPage(res.headers);
    if (++pages > 200) throw new Error('too many pages');
  }
  return { results, pages };
}

const ids = (results: Record<string, unknown>[]) => results.map((r) => r.fsq_place_id as string);

function withinRadius(lat: number, lon: number, radius: number) {
  return all
    .map((p) => ({ p, d: haversine(lat, lon, p.lat, p.lon) }))
    .filter(({ d }) => d <= radius)
    .sort((a, b) => a.d - b.d || (a.p.id < b.p.id ? -1 : 1));
}

describe('search around a point', () => {
  it('returns the nearest places first, within the radius, with correct distances', async () => {
    const res = await callPlaces(f, `/places/search?ll=${PARIS.lat},${PARIS.lon}&radius=3000&limit=20`);
    expect(res.status).toBe(200);
    const expected = withinRadius(PARIS.lat, PARIS.lon, 3000).slice(0, 20);
    expect(ids(res.body.results!)).toEqual(expected.map((e) => e.p.id));
    res.body.results!.forEach((r, i) => {
      expect(Math.abs((r.distance as number) - expected[i]!.d)).toBeLessThanOrEqual(1);
    });
    expect(res.body.context).toEqual({
      geo_bounds: { circle: { center: { latitude: PARIS.lat, longitude: PARIS.lon }, radius: 3000 } },
    });
  });

  it('pages through every place in the radius exactly once, in distance order', async () => {
    const radius = 4000;
    const { results, pages } = await everyPage(
      `/places/search?ll=${PARIS.lat},${PARIS.lon}&radius=${radius}&limit=50`,
    );
    const expected = withinRadius(PARIS.lat, PARIS.lon, radius).filter(({ d }) => Math.abs(d - radius) > 0.5);
    const got = new Set(ids(results));
    expect(got.size).toBe(results.length); // no repeats
    for (const e of expected) expect(got.has(e.p.id)).toBe(true); // no gaps
    expect(results.length).toBeLessThanOrEqual(expected.length + 2);
    expect(pages).toBeGreaterThan(1);
    const distances = results.map((r) => r.distance as number);
    expect([...distances].sort((a, b) => a - b)).toEqual(distances);
  });

  it('uses the default radius of 22 km', async () => {
    const { results } = await everyPage(
      `/places/search?ll=${PARIS.lat},${PARIS.lon}&limit=50&fields=fsq_place_id,distance`,
    );
    const expected = withinRadius(PARIS.lat, PARIS.lon, 22_000).filter(({ d }) => Math.abs(d - 22_000) > 0.5);
    expect(new Set(ids(results))).toEqual(new Set(expected.map((e) => e.p.id)));
  });

  it('applies category (with descendants), chain, price and open_at filters', async () => {
    const reference = f.places.deps.reference();
    const dining = [...reference.categories.values()].find(
      (c) => c.level === 1 && c.name === 'Dining and Drinking',
    )!;
    const inDining = new Set(reference.withDescendants(dining.id));
    const openMinute = 2 * 1440 + 21 * 60 + 30; // Wednesday 21:30
    const { results } = await everyPage(
      `/places/search?ll=${PARIS.lat},${PARIS.lon}&radius=15000&fsq_category_ids=${dining.id}&min_price=2&max_price=3&open_at=3T2130&limit=50`,
    );
    const expected = withinRadius(PARIS.lat, PARIS.lon, 15_000)
      .map((e) => e.p)
      .filter((p) => p.categories.some((c) => inDining.has(c)))
      .filter((p) => p.price !== null && p.price >= 2 && p.price <= 3)
      .filter((p) => openAt(p.hours, openMinute));
    expect(expected.length).toBeGreaterThan(0);
    expect(new Set(ids(results))).toEqual(new Set(expected.map((p) => p.id)));
  });

  it('open_now uses each place’s own time zone at the clock’s time', async () => {
    const now = f.clock.now();
    const { results } = await everyPage(
      `/places/search?ll=${PARIS.lat},${PARIS.lon}&radius=10000&open_now=true&limit=50&fields=fsq_place_id,hours`,
    );
    const expected = withinRadius(PARIS.lat, PARIS.lon, 10_000)
      .map((e) => e.p)
      .filter((p) => openAt(p.hours, localMinute(now, p.timeZone)));
    expect(new Set(ids(results))).toEqual(new Set(expected.map((p) => p.id)));
    for (const r of results) expect((r.hours as { open_now: boolean }).open_now).toBe(true);
  });

  it('excludes chains, or keeps only given chains', async () => {
    const chained = all.find(
      (p) => p.chains.length > 0 && haversine(PARIS.lat, PARIS.lon, p.lat, p.lon) < 20_000,
    )!;
    const chain = chained.chains[0]!;
    const only = await everyPage(
      `/places/search?ll=${PARIS.lat},${PARIS.lon}&radius=20000&fsq_chain_ids=${chain}&limit=50`,
    );
    const expected = withinRadius(PARIS.lat, PARIS.lon, 20_000).filter((e) => e.p.chains.includes(chain));
    expect(new Set(ids(only.results))).toEqual(new Set(expected.map((e) => e.p.id)));
    const none = await everyPage(
      `/places/search?ll=${PARIS.lat},${PARIS.lon}&radius=20000&exclude_all_chains=true&limit=50`,
    );
    const noChain = withinRadius(PARIS.lat, PARIS.lon, 20_000).filter((e) => e.p.chains.length === 0);
    expect(new Set(ids(none.results))).toEqual(new Set(noChain.map((e) => e.p.id)));
  });

  it('matches query text against names, categories and chains', async () => {
    const res = await everyPage(
      `/places/search?ll=${PARIS.lat},${PARIS.lon}&radius=20000&query=restaurant&limit=50&fields=fsq_place_id,name`,
    );
    const got = new Set(ids(res.results));
    const substring = withinRadius(PARIS.lat, PARIS.lon, 20_000).filter((e) =>
      e.p.text.includes('restaurant'),
    );
    expect(substring.length).toBeGreaterThan(0);
    for (const e of substring) expect(got.has(e.p.id)).toBe(true);
  });
});

describe('search in a rectangle and by sort', () => {
  it('returns exactly the places inside ne/sw, also across the antimeridian', async () => {
    for (const [ne, sw] of [
      [
        [48.9, 2.45],
        [48.8, 2.25],
      ],
      [
        [-17.9, -179.5],
        [-18.4, 178.2],
      ],
    ] as const) {
      const { results } = await everyPage(
        `/places/search?ne=${ne.join(',')}&sw=${sw.join(',')}&limit=50&fields=fsq_place_id`,
      );
      const crosses = sw[1] > ne[1];
      const expected = all.filter(
        (p) =>
          p.lat >= sw[0] &&
          p.lat <= ne[0] &&
          (crosses ? p.lon >= sw[1] || p.lon <= ne[1] : p.lon >= sw[1] && p.lon <= ne[1]),
      );
      expect(expected.length).toBeGreaterThan(0);
      expect(new Set(ids(results))).toEqual(new Set(expected.map((p) => p.id)));
    }
  });

  it('sorts by rating and popularity, descending, without gaps or repeats', async () => {
    for (const [sort, key] of [
      ['RATING', 'rating'],
      ['POPULARITY', 'popularity'],
    ] as const) {
      const { results } = await everyPage(
        `/places/search?ll=${PARIS.lat},${PARIS.lon}&radius=5000&sort=${sort}&limit=50&fields=fsq_place_id,${key}`,
      );
      const values = results.map((r) => (r[key] as number | undefined) ?? -1);
      expect([...values].sort((a, b) => b - a)).toEqual(values);
      const expected = withinRadius(PARIS.lat, PARIS.lon, 5000).filter(({ d }) => Math.abs(d - 5000) > 0.5);
      expect(new Set(ids(results))).toEqual(new Set(expected.map((e) => e.p.id)));
    }
  });

  it('resolves near against the gazetteer', async () => {
    const res = await callPlaces(f, '/places/search?near=Paris,%20FR&limit=5');
    expect(res.status).toBe(200);
    expect(res.body.results!.length).toBe(5);
    const circle = (res.body.context as { geo_bounds: { circle: { center: { latitude: number } } } })
      .geo_bounds.circle;
    expect(circle.center.latitude).toBeCloseTo(48.85, 1);
  });
});

describe('fields, details, cursors', () => {
  it('returns only the requested fields', async () => {
    const res = await callPlaces(
      f,
      `/places/search?ll=${PARIS.lat},${PARIS.lon}&fields=name,distance&limit=3`,
    );
    for (const r of res.body.results!) expect(Object.keys(r).sort()).toEqual(['distance', 'name']);
  });

  it('renders each field the same from the columns a search reads for it as from the whole place', async () => {
    // Details read every column; a search reads only the columns of its fields (store/places-read.ts).
    for (const field of [...PRO_FIELDS, ...PREMIUM_FIELDS].filter(
      (name) => name !== 'distance' && name !== 'fsq_place_id',
    )) {
      const res = await callPlaces(
        f,
        `/places/search?ll=${PARIS.lat},${PARIS.lon}&fields=fsq_place_id,${field}&tel_format=NATIONAL&limit=4`,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      for (const r of res.body.results!) {
        const details = await callPlaces(
          f,
          `/places/${r.fsq_place_id}?fields=fsq_place_id,${field}&tel_format=NATIONAL`,
        );
        expect(r, field).toEqual(details.body);
      }
    }
  });

  it('reads every column when a search asks for every field', () => {
    const columns = (text: string) =>
      text
        .split(',')
        .map((c) => c.trim())
        .sort();
    expect(columns(placeColumnsFor(new Set([...PRO_FIELDS, ...PREMIUM_FIELDS])))).toEqual(
      columns(PLACE_COLUMNS),
    );
  });

  it('returns a place by id, 404 for an unknown one', async () => {
    const place = all[0]!;
    const res = await callPlaces(f, `/places/${place.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      fsq_place_id: place.id,
      name: place.name,
      latitude: place.lat,
      longitude: place.lon,
    });
    expect(res.body.distance).toBeUndefined();
    const missing = await callPlaces(f, '/places/000000000000000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/000000000000000000000000/);
  });

  it("points placemaker_url at this Cairn's place editor (CAIRN_PUBLIC_URL), not at the upstream service", async () => {
    const place = all[0]!;
    const editor = `${f.deps.config.publicUrl}/placemakers/place/${place.id}`;
    const details = await callPlaces(f, `/places/${place.id}?fields=placemaker_url`);
    expect(details.body).toEqual({ placemaker_url: editor });
    const found = await callPlaces(
      f,
      `/places/search?ll=${place.lat},${place.lon}&radius=50&fields=fsq_place_id,placemaker_url`,
    );
    expect(found.body.results).toContainEqual({ fsq_place_id: place.id, placemaker_url: editor });
  });

  it('answers 400 naming the parameter for text PostgreSQL cannot store (NUL, invalid UTF-8), never 500', async () => {
    const id = all[0]!.id;
    for (const [method, path, parameter] of [
      ['GET', '/places/search?query=caf%00e', 'query'],
      ['GET', '/places/search?near=Par%00is', 'near'],
      ['GET', '/places/search?query=caf%C3e', 'query'],
      ['GET', '/places/search?query=%ED%A0%80', 'query'],
      ['GET', '/autocomplete?query=caf%00e', 'query'],
      ['GET', `/places/match?name=%00&ll=${PARIS.lat},${PARIS.lon}`, 'name'],
      ['GET', '/places/match?name=Cafe&city=Pa%00ris&cc=FR', 'city'],
      ['POST', `/places/${id}/suggest/edit?name=Caf%00e`, 'name'],
      ['POST', `/places/${id}/suggest/flag?fields=name&comment=%00`, 'comment'],
      ['GET', `/places/${id}/history?limit=1%00`, 'limit'],
    ] as const) {
      const res = await fetch(`${f.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${f.serviceKey}`, 'x-places-api-version': '2025-06-17' },
      });
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { message: string }).message, path).toContain(parameter);
    }
  });

  it('answers a mistyped path under /places/ as an unknown route, not an unknown place', async () => {
    for (const [method, path] of [
      ['GET', '/places/searchx'],
      ['GET', '/places/Search'],
      ['GET', '/places/matchh'],
      ['GET', '/places/0000000000000000000000000'], // 25 digits: not an id's shape
      ['GET', '/places/searchx/history'],
      ['POST', '/places/searchx/suggest/edit'],
      ['GET', '/places/suggest/statuss'],
    ] as const) {
      const res = await fetch(`${f.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${f.serviceKey}`, 'x-places-api-version': '2025-06-17' },
      });
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { message: string }).message).toBe(`No route ${method} ${path}`);
    }
    // An id's shape in any case reaches the place lookup.
    const upper = await callPlaces(f, `/places/${all[0]!.id.toUpperCase()}`);
    expect(upper.status).toBe(404);
    expect(upper.body.message).toMatch(/^Place not found/);
  });

  it('refuses a tampered cursor and a cursor with other parameters', async () => {
    const first = await callPlaces(f, `/places/search?ll=${PARIS.lat},${PARIS.lon}&limit=5`);
    const next = new URL(nextPage(first.headers)!);
    const cursor = next.searchParams.get('cursor')!;
    const tampered = cursor.replace(/^./, (c) => (c === 'e' ? 'f' : 'e'));
    const bad = await callPlaces(
      f,
      `/places/search?cursor=${encodeURIComponent(tampered)}&ll=${PARIS.lat},${PARIS.lon}&limit=5`,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/cursor/);
    const other = await callPlaces(
      f,
      `/places/search?cursor=${encodeURIComponent(cursor)}&ll=${PARIS.lat},${PARIS.lon}&limit=6`,
    );
    expect(other.status).toBe(400);
    expect(other.body.message).toMatch(/cursor.*other parameters/);
    expect(next.searchParams.get('ll')).toBe(`${PARIS.lat},${PARIS.lon}`);
    expect(first.headers.get('link')).toMatch(/^<http:\/\/[^>]+\/places\/search\?cursor=[^&]+&ll=/);
  });

  it('autocompletes places, searches and cities for 3+ characters', async () => {
    const name = all.find((p) => haversine(PARIS.lat, PARIS.lon, p.lat, p.lon) < 20_000)!.name;
    const res = await callPlaces(
      f,
      `/autocomplete?query=${encodeURIComponent(name.slice(0, 5))}&ll=${PARIS.lat},${PARIS.lon}&limit=50`,
    );
    expect(res.status).toBe(200);
    const types = new Set(res.body.results!.map((r) => r.type));
    expect(types.has('place')).toBe(true);
    const geo = await callPlaces(f, '/autocomplete?query=Pari&types=geo');
    expect(geo.body.results![0]).toMatchObject({ type: 'geo', geo: { name: 'Paris', cc: 'FR' } });
    const short = await callPlaces(f, '/autocomplete?query=ab');
    expect(short.status).toBe(400);
    expect(short.body.message).toMatch(/query/);
  });

  it('matches a business by name and ll, or answers Match not found', async () => {
    const place = all.find((p) => haversine(PARIS.lat, PARIS.lon, p.lat, p.lon) < 20_000)!;
    const res = await callPlaces(
      f,
      `/places/match?name=${encodeURIComponent(place.name)}&ll=${place.lat},${place.lon}`,
    );
    expect(res.status).toBe(200);
    expect((res.body.place as { fsq_place_id: string }).fsq_place_id).toBe(place.id);
    expect(res.body.match_score).toBeGreaterThan(0.5);
    const none = await callPlaces(
      f,
      `/places/match?name=Zzyzx%20Qwerty%20Emporium&ll=${place.lat},${place.lon}`,
    );
    expect(none.status).toBe(404);
    expect(none.body.message).toBe('Match not found');
  });
});

describe('parameters checked by the route schemas', () => {
  it('takes an integer only as decimal digits, and says which parameter and what it must be', async () => {
    for (const [query, message] of [
      ['limit=10abc', 'Invalid limit: "10abc" is not an integer from 1 to 50'],
      ['limit=1e1', 'Invalid limit: "1e1" is not an integer from 1 to 50'],
      ['limit=%205', 'Invalid limit: " 5" is not an integer from 1 to 50'],
      ['limit=+5', 'Invalid limit: " 5" is not an integer from 1 to 50'],
      ['limit=0x10', 'Invalid limit: "0x10" is not an integer from 1 to 50'],
      ['limit=5.0', 'Invalid limit: "5.0" is not an integer from 1 to 50'],
      ['limit=', 'Invalid limit: "" is not an integer from 1 to 50'],
      ['limit=51', 'Invalid limit: "51" is not an integer from 1 to 50'],
      ['limit=0', 'Invalid limit: "0" is not an integer from 1 to 50'],
      ['limit=-1', 'Invalid limit: "-1" is not an integer from 1 to 50'],
      ['limit=1&limit=2', 'Invalid limit: given more than once; give it once'],
      ['radius=100001&ll=1,1', 'Invalid radius: "100001" is not an integer from 0 to 100000'],
      ['min_price=5', 'Invalid min_price: "5" is not an integer from 1 to 4'],
      ['min_price=3&max_price=2', 'Invalid max_price: 2 is below min_price 3'],
      ['open_now=yes', 'Invalid open_now: "yes" is not true or false (1 and 0 are taken too)'],
      ['sort=BEST', 'Invalid sort: "BEST" is not one of RELEVANCE, RATING, DISTANCE, POPULARITY'],
      ['tel_format=x', 'Invalid tel_format: use NATIONAL or E164'],
      [
        'open_at=8T1000',
        'Invalid open_at: "8T1000" is not DOWTHHMM (day 1 = Monday … 7 = Sunday, T, 24-hour time), e.g. 1T2130',
      ],
      [
        'll=91,0',
        'Invalid ll: "91,0" is not "latitude,longitude" with latitude from -90 to 90 and longitude from -180 to 180 (e.g. 40.7484,-73.9857)',
      ],
      ['fields=name,fsq_id,geocodes', "Unexpected field(s): 'fsq_id,geocodes' provided."],
      ['fields=name,name', "Unexpected field(s): 'name' provided. Each field may be named once in fields."],
      [
        'fsq_chain_ids=a,$',
        'Invalid fsq_chain_ids: "a,$" is not a comma-separated list of 1 to 50 ids (letters, digits, _ and -)',
      ],
      ['query=%20%20', 'Invalid query: give 1 to 200 characters of text'],
    ] as const) {
      const res = await callPlaces(f, `/places/search?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toBe(message);
    }
    for (const [path, message] of [
      ['/autocomplete', 'Invalid query: query is required: give at least 3 characters'],
      ['/autocomplete?query=%20ab%20', 'Invalid query: give 3 to 100 characters'],
      [
        '/autocomplete?query=abc&types=place,city',
        'Invalid types: "place,city" is not a comma list of place, search, geo',
      ],
      ['/places/match?ll=1,1', 'Invalid name: name is required: the business name to match'],
      ['/places/match?name=Cafe&cc=FRA', 'Invalid cc: "FRA" is not a two-letter country code'],
      [`/places/${all[0]!.id}?tel_format=E.164`, 'Invalid tel_format: use NATIONAL or E164'],
    ] as const) {
      const res = await callPlaces(f, path);
      expect(res.status, path).toBe(400);
      expect(res.body.message, path).toBe(message);
    }
  });

  it('takes plain forms: digits with leading zeros, 1 and 0 for booleans, an enum member in any case', async () => {
    const res = await callPlaces(
      f,
      `/places/search?ll=${PARIS.lat},${PARIS.lon}&limit=05&open_now=0&sort=distance`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.results).toHaveLength(5);
  });

  it('checks query text by the same schema for in-process callers (the place editor)', async () => {
    const answer = await search(
      f.places.deps,
      searchQuery({ ll: `${PARIS.lat},${PARIS.lon}`, limit: '3', sort: 'distance' }),
    );
    expect(answer.body.results).toHaveLength(3);
    expect(() => searchQuery({ limit: '1e1' })).toThrow(
      'Invalid limit: "1e1" is not an integer from 1 to 50',
    );
    expect(() => searchQuery({ radius: 'far', ll: '1,1' })).toThrow('Invalid radius');
  });

  it('documents each parameter with its type, range, enum and pattern in /openapi.json', async () => {
    const spec = (await (await fetch(`${f.baseUrl}/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<
          string,
          { parameters: { name: string; in: string; required?: boolean; schema: Record<string, unknown> }[] }
        >
      >;
    };
    const parameters = Object.fromEntries(
      spec.paths['/places/search']!.get!.parameters.map((p) => [`${p.in}:${p.name}`, p]),
    );
    expect(parameters['query:limit']!.schema).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 50,
      default: 10,
    });
    expect(parameters['query:radius']!.schema).toMatchObject({
      type: 'integer',
      minimum: 0,
      maximum: 100000,
    });
    expect(parameters['query:sort']!.schema).toMatchObject({
      enum: ['RELEVANCE', 'RATING', 'DISTANCE', 'POPULARITY'],
    });
    expect(parameters['query:open_now']!.schema).toMatchObject({ type: 'boolean' });
    expect(parameters['query:ll']!.schema.pattern).toEqual(expect.any(String));
    expect(parameters['query:fields']!.schema.pattern).toContain('veracity_rating');
    expect(parameters['header:x-places-api-version']).toMatchObject({
      required: true,
      schema: { enum: ['2025-06-17'] },
    });
    const autocomplete = spec.paths['/autocomplete']!.get!.parameters.find((p) => p.name === 'query')!;
    expect(autocomplete.required).toBe(true);
  });
});
