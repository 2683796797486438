import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Caller, managedUser, placeIds } from './edit-helpers.ts';
import { type PlacesFixture, startPlaces } from './helpers.ts';

/** The suggested-edit endpoints under random parameters and callers: 2xx, or 4xx with a message — never 5xx. */
let f: PlacesFixture;
let ids: string[];
let users: Caller[];
let editIds: string[];

beforeAll(async () => {
  f = await startPlaces({ count: 60, seed: 'edits-property' });
  ids = await placeIds(f);
  users = [await managedUser(f), await managedUser(f), await managedUser(f)];
  editIds = [];
  for (const [i, u] of users.entries()) {
    const res = await api<{ suggested_edits: { id: string }[] }>(
      f,
      'POST',
      `/places/${ids[i]}/suggest/edit`,
      { name: `Seed ${i}` },
      u.token,
    );
    editIds.push(res.body.suggested_edits[0]!.id);
  }
}, 120_000);
afterAll(async () => {
  await f.close();
});

const anyText = fc.string({ unit: 'grapheme', maxLength: 30 });
const num = fc.oneof(
  fc.double({ min: -200, max: 200, noNaN: true }).map((n) => n.toFixed(5)),
  fc.integer().map(String),
  fc.constantFrom('1e3', '-0', '0x10', 'NaN', 'Infinity', '90.0000001'),
);
const values: Record<string, fc.Arbitrary<string>> = {
  name: fc.oneof(anyText, fc.constantFrom('Café Ünïcode', '', ' ', 'x'.repeat(250))),
  latitude: num,
  longitude: num,
  address: anyText,
  locality: anyText,
  region: anyText,
  postcode: anyText,
  country_code: fc.oneof(fc.constantFrom('FR', 'us', 'ZZ', 'FRA', ''), anyText),
  tel: fc.oneof(fc.constantFrom('+33 1 42 68 53 00', '(555) 555-0123', '12', '+'), anyText),
  website: fc.oneof(
    fc.constantFrom('https://example.com', 'http://x', 'javascript:alert(1)', 'https://user:pw@example.com'),
    anyText,
  ),
  email: fc.oneof(fc.constantFrom('a@b.co', 'a@b', '@'), anyText),
  description: fc.oneof(anyText, fc.constant('d'.repeat(301))),
  hours: fc.oneof(
    fc.constantFrom('1,0800,1700', '7,2200,+0200;1,0000,2400', '1,0800', '0,0800,0900', ';;', '1,0800,0800'),
    anyText,
  ),
  facebook_url: fc.oneof(
    fc.constantFrom('https://www.facebook.com/page', 'https://facebook.com/profile.php?id=12'),
    anyText,
  ),
  instagram: anyText,
  twitter: fc.constantFrom('@cairn', 'bad handle', ''),
  add_fsq_category_ids: fc.oneof(fc.constantFrom('ffffffffffffffffffffffff', ''), anyText),
  remove_fsq_category_ids: anyText,
  primary_fsq_category_id: anyText,
  add_fsq_chain_ids: anyText,
  remove_fsq_chain_ids: anyText,
  primary_fsq_chain_id: anyText,
  chains: fc.oneof(fc.constant(''), anyText),
  unset_fields: fc.oneof(fc.constantFrom('tel', 'tel,website', 'name', 'chains', ','), anyText),
  categories: anyText,
  reason: fc.oneof(fc.constantFrom('CLOSED', 'DOESNT_EXIST', 'NOT_CLOSED', 'private', 'OTHER'), anyText),
  comment: fc.oneof(anyText, fc.constant('c'.repeat(1001))),
  fields: fc.oneof(fc.constantFrom('name', 'name,tel', 'placeActions', ''), anyText),
  problem: fc.oneof(fc.constantFrom('duplicate', 'mislocated', 'inappropriate'), anyText),
  duplicate_fsq_place_ids: fc.oneof(fc.constantFrom(...['nope', '', ',,']), anyText),
  suggested_edit_ids: anyText,
  limit: fc.oneof(fc.integer({ min: -2, max: 60 }).map(String), anyText),
  near: fc.oneof(fc.constantFrom('Paris, FR', 'Suva', 'Atlantis'), anyText),
  ne: fc.constantFrom('48.9,2.45', '-17.9,-179.5', '91,0', 'x'),
  sw: fc.constantFrom('48.8,2.25', '-18.4,178.2', '0,-181', ''),
  ll: fc.constantFrom('48.85,2.35', '-18.14,178.44', '', '100,100'),
  radius: fc.oneof(fc.integer({ min: -5, max: 200_000 }).map(String), anyText),
  before: fc.oneof(fc.integer({ min: -5, max: 10 }).map(String), anyText),
  vote: fc.constantFrom('approve', 'reject', 'skip', 'APPROVE', 'yes', ''),
  dry_run: fc.constantFrom('true', 'false', '1', 'maybe'),
  mystery: anyText,
};

const FIELD_KEYS = [
  'name',
  'latitude',
  'longitude',
  'address',
  'locality',
  'region',
  'postcode',
  'country_code',
  'tel',
  'website',
  'email',
  'description',
  'hours',
  'facebook_url',
  'instagram',
  'twitter',
];
const KEYS: Record<string, string[]> = {
  edit: [
    ...FIELD_KEYS,
    'add_fsq_category_ids',
    'remove_fsq_category_ids',
    'primary_fsq_category_id',
    'add_fsq_chain_ids',
    'remove_fsq_chain_ids',
    'primary_fsq_chain_id',
    'chains',
    'unset_fields',
    'comment',
    'dry_run',
  ],
  remove: ['reason', 'comment', 'dry_run'],
  flag: ['fields', 'problem', 'comment', 'dry_run'],
  merge: ['duplicate_fsq_place_ids', 'comment', 'dry_run'],
  place: [...FIELD_KEYS, 'name', 'latitude', 'longitude', 'categories', 'chains', 'comment', 'dry_run'],
  status: ['suggested_edit_ids', 'limit'],
  review: ['near', 'ne', 'sw', 'll', 'radius', 'limit'],
  vote: ['vote', 'dry_run'],
  history: ['limit', 'before'],
};

/** Mostly the endpoint's own parameters (sometimes one it does not take), each with a random value. */
const queryFor = (kind: string) =>
  fc
    .uniqueArray(fc.constantFrom(...KEYS[kind]!, ...KEYS[kind]!, 'mystery'), { maxLength: 4 })
    .chain((keys) => fc.tuple(...keys.map((k) => values[k]!.map((v) => [k, v] as const))))
    .map((pairs) => Object.fromEntries(pairs));

describe('suggested-edit endpoints under random input', () => {
  it('answer 2xx with a body or 4xx with a message — never 5xx', async () => {
    const placeId = fc.oneof(
      fc.constantFrom(...ids.slice(0, 10)),
      fc.constantFrom('nosuchplace', '%20', 'a'.repeat(70)),
    );
    const editId = fc.oneof(
      fc.constantFrom(...editIds),
      fc.uuid(),
      anyText.filter((s) => s !== '' && !s.includes('/')),
    );
    const endpoint = fc.oneof(
      fc
        .tuple(fc.constantFrom('edit', 'remove', 'flag', 'merge', 'history'), placeId)
        .map(([kind, id]) =>
          kind === 'history'
            ? (['GET', `/places/${encodeURIComponent(id)}/history`, kind] as const)
            : (['POST', `/places/${encodeURIComponent(id)}/suggest/${kind}`, kind] as const),
        ),
      fc.constant(['POST', '/places/suggest/place', 'place'] as const),
      fc.constant(['GET', '/places/suggest/status', 'status'] as const),
      fc.constant(['GET', '/places/suggest/review', 'review'] as const),
      editId.map((id) => ['POST', `/places/suggest/${encodeURIComponent(id)}/vote`, 'vote'] as const),
    );
    const call = endpoint.chain(([method, path, kind]) =>
      fc.tuple(fc.constant(method), fc.constant(path), queryFor(kind)),
    );
    const statuses: Record<number, number> = {};
    await fc.assert(
      fc.asyncProperty(call, fc.nat(users.length), async ([method, path, q], who) => {
        const token = who === users.length ? f.serviceKey : users[who]!.token;
        const res = await api(f, method, path, q, token);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        const where = `${method} ${path}?${new URLSearchParams(q)} → ${res.status} ${JSON.stringify(res.body)}`;
        expect(res.status, where).toBeLessThan(500);
        if (res.status >= 400) expect(res.body.message, where).toEqual(expect.stringMatching(/\S/));
      }),
      { numRuns: 300 },
    );
    // The inputs reach past validation often enough to mean something.
    expect(statuses[200] ?? 0, JSON.stringify(statuses)).toBeGreaterThan(20);
  }, 120_000);
});
