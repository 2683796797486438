import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callPlaces, type PlacesFixture, startPlaces } from './helpers.ts';

let f: PlacesFixture;
/** The most popular generated place in Paris (many tips and photos), and another, a restaurant or café. */
let popular: { id: string; name: string };
let eatery: string;

beforeAll(async () => {
  f = await startPlaces({ count: 300 });
  const { rows } = await f.deps.db.query<{ fsq_place_id: string; name: string }>(
    `SELECT fsq_place_id, name FROM places WHERE country = 'FR' ORDER BY popularity DESC LIMIT 1`,
  );
  popular = { id: rows[0]!.fsq_place_id, name: rows[0]!.name };
  const food = await f.deps.db.query<{ fsq_place_id: string }>(
    `SELECT fsq_place_id FROM places WHERE fsq_category_labels[1] LIKE 'Dining and Drinking%'
        AND fsq_place_id <> $1
      ORDER BY popularity DESC LIMIT 1`,
    [popular.id],
  );
  eatery = food.rows[0]!.fsq_place_id;
}, 120_000);
afterAll(async () => {
  await f.close();
});

type Item = Record<string, unknown>;
const list = async (path: string) => {
  const res = await callPlaces(f, path);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as Item[];
};

/** Fetches a photo URL (its address is CAIRN_PUBLIC_URL's; the test server listens elsewhere). */
async function image(url: string, headers: Record<string, string> = {}) {
  const u = new URL(url);
  return fetch(`${f.baseUrl}${u.pathname}${u.search}`, { headers });
}

describe('GET /places/{id}/tips', () => {
  it('answers up to 10 tips with the three default fields, most agreed with first', async () => {
    const tips = await list(`/places/${popular.id}/tips`);
    expect(tips.length).toBe(10);
    for (const t of tips) {
      expect(Object.keys(t)).toEqual(['fsq_tip_id', 'created_at', 'text']);
      expect(t.fsq_tip_id).toMatch(/^[0-9a-f]{24}$/);
      expect(Number.isNaN(Date.parse(t.created_at as string))).toBe(false);
    }
    const all = await list(
      `/places/${popular.id}/tips?fields=fsq_tip_id,agree_count,disagree_count,lang&limit=50`,
    );
    const score = all.map((t) => (t.agree_count as number) - (t.disagree_count as number));
    expect(score).toEqual([...score].sort((a, b) => b - a));
    // In the place's country's language (a Paris place: French).
    expect(new Set(all.map((t) => t.lang))).toEqual(new Set(['fr']));
    // The same answer every time: derived from the place's id.
    expect(
      await list(`/places/${popular.id}/tips?fields=fsq_tip_id,agree_count,disagree_count,lang&limit=50`),
    ).toEqual(all);
  });

  it('sort=NEWEST orders by creation; limit and fields are taken; the place field shows the same tips', async () => {
    const newest = await list(`/places/${popular.id}/tips?sort=NEWEST&limit=5&fields=created_at,text,photo`);
    expect(newest.length).toBe(5);
    const times = newest.map((t) => t.created_at as string);
    expect(times).toEqual([...times].sort().reverse());
    for (const t of newest)
      expect(Object.keys(t).every((k) => ['created_at', 'text', 'photo'].includes(k))).toBe(true);
    const details = await callPlaces(f, `/places/${popular.id}?fields=tips,stats`);
    expect(details.status).toBe(200);
    const top = await list(`/places/${popular.id}/tips?limit=5&fields=fsq_tip_id`);
    expect((details.body.tips as Item[]).map((t) => t.fsq_tip_id)).toEqual(top.map((t) => t.fsq_tip_id));
    const stats = details.body.stats as Record<string, number>;
    const every = await list(`/places/${popular.id}/tips?limit=50`);
    expect(stats.total_tips).toBe(every.length);
    expect(stats.total_photos).toBeGreaterThan(0);
  });

  it('refuses bad parameters with a 400 naming them, and an unknown place with a 404', async () => {
    const cases: [string, RegExp][] = [
      ['limit=0', /^Invalid limit: "0" is not an integer from 1 to 50/],
      ['limit=51', /^Invalid limit/],
      ['limit=ten', /^Invalid limit/],
      ['sort=BEST', /^Invalid sort: "BEST" is not one of POPULAR, NEWEST/],
      ['fields=text,likes', /^Invalid fields: "text,likes" is not a comma list of fsq_tip_id/],
    ];
    for (const [query, message] of cases) {
      const res = await callPlaces(f, `/places/${popular.id}/tips?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toMatch(message);
    }
    const missing = await callPlaces(f, `/places/${'0'.repeat(24)}/tips`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/^Place not found/);
    expect((await callPlaces(f, `/places/${popular.id}/tips`, { version: null })).status).toBe(400);
    expect((await callPlaces(f, `/places/${popular.id}/tips`, { token: null })).status).toBe(401);
  });
});

describe('tips, photos and stats as fields of a place', () => {
  it('search and details show them, stored tips and photos counted with the derived ones', async () => {
    const fields = 'fsq_place_id,tips,photos,stats';
    const before = await callPlaces(f, `/places/${popular.id}?fields=${fields}`);
    const stats = before.body.stats as Record<string, number>;
    await f.deps.db.query(
      `INSERT INTO places_tips (fsq_tip_id, fsq_place_id, created_at, text, lang, agree_count, source)
       VALUES ('${'c'.repeat(24)}', $1, '2025-06-16T12:00:00Z', 'Imported tip', 'en', 500, 'import')`,
      [popular.id],
    );
    await f.deps.db.query(
      `INSERT INTO places_photos (id, fsq_place_id, created_at, prefix, suffix, width, height, classifications)
       VALUES ('${'d'.repeat(24)}', $1, '2025-06-16T12:00:00Z', 'https://img.example/', '/a.jpg', 640, 480, '{menu}')`,
      [popular.id],
    );
    const after = await callPlaces(f, `/places/${popular.id}?fields=${fields}`);
    expect(after.body.stats).toEqual({
      ...stats,
      total_tips: stats.total_tips! + 1,
      total_photos: stats.total_photos! + 1,
    });
    expect((after.body.tips as Item[])[0]).toMatchObject({
      fsq_tip_id: 'c'.repeat(24),
      text: 'Imported tip',
    });
    const [newest] = await list(`/places/${popular.id}/tips?sort=NEWEST&limit=1&fields=text,agree_count`);
    expect(newest).toEqual({ text: 'Imported tip', agree_count: 500 });
    const [menu] = await list(`/places/${popular.id}/photos?sort=NEWEST&classifications=menu&limit=1`);
    expect(menu).toEqual({
      id: 'd'.repeat(24),
      created_at: '2025-06-16T12:00:00.000Z',
      prefix: 'https://img.example/',
      suffix: '/a.jpg',
      width: 640,
      height: 480,
      classifications: ['menu'],
    });

    const res = await callPlaces(
      f,
      `/places/search?ll=48.8566,2.3522&radius=20000&limit=20&fields=${fields}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const results = res.body.results!;
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) {
      expect(Object.keys(r.stats as object).sort()).toEqual(['total_photos', 'total_ratings', 'total_tips']);
      expect((r.photos as Item[]).length).toBe(
        Math.min(5, (r.stats as Record<string, number>).total_photos!),
      );
      const detail = await callPlaces(f, `/places/${r.fsq_place_id}?fields=${fields}`);
      expect(detail.body).toEqual(r);
    }
  });
});

describe('/openapi.json', () => {
  it('documents the tips and photos endpoints with their parameters and answers', async () => {
    type Operation = {
      parameters: { name: string; in: string; schema: Record<string, unknown> }[];
      responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
    };
    const spec = (await (await fetch(`${f.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const params = (path: string) =>
      Object.fromEntries(spec.paths[path]!.get!.parameters.map((p) => [`${p.in}:${p.name}`, p.schema]));
    const tips = params('/places/{fsq_place_id}/tips');
    expect(tips['query:limit']).toMatchObject({ type: 'integer', minimum: 1, maximum: 50, default: 10 });
    expect(tips['query:sort']).toMatchObject({ enum: ['POPULAR', 'NEWEST'] });
    expect(tips['query:fields']!.pattern).toContain('disagree_count');
    const photos = params('/places/{fsq_place_id}/photos');
    expect(photos['query:classifications']!.pattern).toContain('food_or_drink');
    const answer =
      spec.paths['/places/{fsq_place_id}/photos']!.get!.responses['200']!.content!['application/json']!
        .schema;
    expect(answer).toMatchObject({
      type: 'array',
      items: { required: expect.arrayContaining(['prefix', 'suffix']) },
    });
    expect(Object.keys(spec.paths).some((p) => p.startsWith('/places-photos'))).toBe(false);
  });
});

describe('GET /places/{id}/photos and the photo images', () => {
  it('answers photos with prefix, suffix, size and classifications; filters and sorts', async () => {
    const photos = await list(`/places/${eatery}/photos?limit=50`);
    expect(photos.length).toBeGreaterThan(1);
    for (const p of photos) {
      expect(Object.keys(p)).toEqual([
        'id',
        'created_at',
        'prefix',
        'suffix',
        'width',
        'height',
        'classifications',
      ]);
      expect(p.prefix).toBe(`${f.deps.config.publicUrl}/places-photos/`);
    }
    const kinds = new Set(photos.flatMap((p) => p.classifications as string[]));
    expect(kinds.has('food_or_drink')).toBe(true);
    const food = await list(`/places/${eatery}/photos?limit=50&classifications=food_or_drink,menu`);
    expect(food.length).toBeGreaterThan(0);
    for (const p of food) expect(['food_or_drink', 'menu']).toContain((p.classifications as string[])[0]);
    const newest = await list(`/places/${eatery}/photos?limit=50&sort=newest`);
    const times = newest.map((p) => p.created_at as string);
    expect(times).toEqual([...times].sort().reverse());
    expect((await list(`/places/${eatery}/photos?limit=1`)).length).toBe(1);
    const bad = await callPlaces(f, `/places/${eatery}/photos?classifications=selfie`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^Invalid classifications: "selfie" is not a comma list of exhibit/);
    expect((await callPlaces(f, `/places/${'a'.repeat(24)}/photos`)).status).toBe(404);
  });

  it('serves prefix + size + suffix as a PNG of that size, cacheable, the same bytes each time', async () => {
    const [photo] = await list(`/places/${eatery}/photos?limit=1`);
    const { prefix, suffix, width, height } = photo as {
      prefix: string;
      suffix: string;
      width: number;
      height: number;
    };
    const sizes: [string, number, number][] = [
      ['300x300', 300, 300],
      ['100x250', 100, 250],
      [
        `cap200`,
        Math.round((width * 200) / Math.max(width, height)),
        Math.round((height * 200) / Math.max(width, height)),
      ],
      ['width120', 120, Math.round((height * 120) / width)],
      ['height90', Math.round((width * 90) / height), 90],
      ['original', width, height],
    ];
    for (const [size, w, h] of sizes) {
      const res = await image(prefix + size + suffix);
      expect(res.status, size).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('cache-control')).toContain('immutable');
      const png = PNG.sync.read(Buffer.from(await res.arrayBuffer()));
      expect([png.width, png.height], size).toEqual([w, h]);
    }
    const first = await image(`${prefix}300x300${suffix}`);
    const etag = first.headers.get('etag')!;
    expect(Buffer.from(await first.arrayBuffer())).toEqual(
      Buffer.from(await (await image(`${prefix}300x300${suffix}`)).arrayBuffer()),
    );
    expect((await image(`${prefix}300x300${suffix}`, { 'if-none-match': etag })).status).toBe(304);
    // A picture, not a flat colour: a few hundred distinct colours at least.
    const png = PNG.sync.read(Buffer.from(await (await image(`${prefix}300x300${suffix}`)).arrayBuffer()));
    const colours = new Set<number>();
    for (let i = 0; i < png.data.length; i += 4) colours.add(png.data.readUInt32BE(i));
    expect(colours.size).toBeGreaterThan(20);
  });

  it('refuses hostile sizes and files before drawing anything', async () => {
    const [photo] = await list(`/places/${eatery}/photos?limit=1`);
    const { prefix, suffix } = photo as { prefix: string; suffix: string };
    for (const size of [
      '100000x100000',
      '2000x10',
      'cap5000',
      'width99999',
      '0x0',
      '300X300',
      'big',
      '-5x5',
      '1e3x1e3',
    ]) {
      const res = await image(prefix + size + suffix);
      expect(res.status, size).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(/^Invalid size: /);
    }
    for (const file of [
      'nope.png',
      `${'a'.repeat(24)}-selfie-300x300.png`,
      `${'a'.repeat(24)}-menu-99999x9999.png`,
    ]) {
      const res = await image(`${prefix}300x300/${file}`);
      expect(res.status, file).toBe(404);
    }
  });
});
