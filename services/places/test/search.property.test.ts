import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callPlaces, type PlacesFixture, startPlaces } from './helpers.ts';

let f: PlacesFixture;
beforeAll(async () => {
  f = await startPlaces({ count: 300 });
}, 120_000);
afterAll(async () => {
  await f.close();
});

const hex = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'.split('')), minLength: min, maxLength: max });
const anyText = fc.string({ unit: 'grapheme', maxLength: 30 });
const num = fc.oneof(
  fc.double({ min: -200, max: 200, noNaN: true }).map((n) => n.toFixed(4)),
  fc.integer().map(String),
);
const values: Record<string, fc.Arbitrary<string>> = {
  query: fc.oneof(
    anyText,
    fc.constantFrom('cafe', 'restaurant', 'bank', '%', '_', "'; drop table places; --"),
  ),
  ll: fc.oneof(
    fc.tuple(num, num).map(([a, b]) => `${a},${b}`),
    fc.constantFrom('48.85,2.35', '-18.14,178.44', '', ','),
  ),
  radius: fc.oneof(fc.integer({ min: -10, max: 200_000 }).map(String), anyText),
  fsq_category_ids: fc.oneof(hex(24, 24), anyText),
  fsq_chain_ids: fc.oneof(hex(24, 24), anyText),
  exclude_fsq_chain_ids: hex(1, 24),
  exclude_all_chains: fc.constantFrom('true', 'false', 'yes', ''),
  fields: fc.oneof(
    fc
      .subarray(['name', 'distance', 'hours', 'location', 'categories', 'chains', 'rating', 'price'])
      .map((a) => a.join(',')),
    anyText,
  ),
  min_price: fc.integer({ min: -1, max: 6 }).map(String),
  max_price: fc.integer({ min: -1, max: 6 }).map(String),
  open_at: fc.oneof(fc.constantFrom('1T2130', '7T0000', '3T1200', '8T1000', '1T2460'), anyText),
  open_now: fc.constantFrom('true', 'false', 'x'),
  tel_format: fc.constantFrom('NATIONAL', 'E164', 'x'),
  ne: fc.constantFrom('48.9,2.45', '-17.9,-179.5', '91,0', 'x'),
  sw: fc.constantFrom('48.8,2.25', '-18.4,178.2', '0,-181', ''),
  near: fc.oneof(fc.constantFrom('Paris', 'Suva, FJ', 'Springfield, IL', 'Atlantis'), anyText),
  sort: fc.constantFrom('RELEVANCE', 'RATING', 'DISTANCE', 'POPULARITY', 'relevance', 'BEST'),
  limit: fc.oneof(fc.integer({ min: -1, max: 60 }).map(String), anyText),
  cursor: fc.oneof(anyText, fc.base64String({ maxLength: 40 })),
  unknown_parameter: anyText,
};
const query = fc
  .uniqueArray(fc.constantFrom(...Object.keys(values)), { maxLength: 7 })
  .chain((keys) => fc.tuple(...keys.map((k) => values[k]!.map((v) => [k, v] as const))))
  .map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&'));

describe('places search under random parameter combinations', () => {
  it('answers 2xx with a valid body or 4xx with a message — never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/places/search', '/autocomplete', '/places/match'),
        query,
        async (path, q) => {
          const res = await callPlaces(f, `${path}?${q}`);
          expect(res.status, `${path}?${q} → ${JSON.stringify(res.body)}`).toBeLessThan(500);
          if (res.status >= 400) {
            expect(typeof res.body.message).toBe('string');
            expect((res.body.message as string).length).toBeGreaterThan(0);
          } else if (path === '/places/match') {
            expect(typeof res.body.match_score).toBe('number');
          } else {
            expect(Array.isArray(res.body.results)).toBe(true);
            if (path === '/places/search') {
              expect(typeof res.body.context).toBe('object');
              const limit = /(?:^|&)limit=(\d+)(?:&|$)/.exec(q);
              expect(res.body.results!.length).toBeLessThanOrEqual(limit ? Number(limit[1]) : 10);
            }
          }
        },
      ),
      { numRuns: 250 },
    );
  });
});
