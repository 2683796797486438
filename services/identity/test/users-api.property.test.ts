import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callUsersApi, type IdentityFixture, startIdentity } from './helpers.ts';

let f: IdentityFixture;
let managedToken: string;
beforeAll(async () => {
  f = await startIdentity();
  const created = await callUsersApi(f.baseUrl, '/users/managed-user/create', { token: f.serviceKey });
  managedToken = created.body.access_token as string;
});
afterAll(async () => {
  await f.close();
});

const printable = fc.string({
  unit: fc.constantFrom(...' !"#$%&\'()*+,-./0123456789:;<=>?@ABCZabcz[]^_`{|}~'.split('')),
});
const anyText = fc.string({ unit: 'grapheme', maxLength: 40 });

const queryValue = fc.oneof(
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(String),
  anyText,
  fc.constantFrom('', '%', '%zz', '%00', '%E2%82', '100001', '0x10', '1e3', ' 1', '[]', '{"a":1}'),
);
const queryKey = fc.constantFrom(
  'first_name',
  'last_name',
  'target_user_id',
  'x',
  '',
  'first_name[]',
  '__proto__',
  'constructor',
);
const rawQuery = fc
  .array(fc.tuple(queryKey, queryValue, fc.boolean()), { maxLength: 6 })
  .map((pairs) =>
    pairs
      .map(
        ([k, v, encode]) =>
          `${encodeURIComponent(k)}=${encode ? encodeURIComponent(v) : v.replace(/[#\s&]/g, '')}`,
      )
      .join('&'),
  );

describe('users API under random input', () => {
  it('answers 2xx with the documented body or 4xx with a message — never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('create', 'refresh-token', 'delete', 'nothing'),
        rawQuery,
        fc.constantFrom('POST', 'POST', 'GET', 'PUT', 'DELETE'),
        fc.oneof(fc.constant('key'), fc.constant('managed'), fc.constant(null), printable),
        fc.oneof(fc.constant('2025-06-17'), fc.constant(null), printable),
        fc.oneof(fc.constant('application/json'), fc.constant(null), printable),
        async (endpoint, query, method, credential, version, accept) => {
          const token =
            credential === 'key' ? f.serviceKey : credential === 'managed' ? managedToken : credential;
          const res = await callUsersApi(f.baseUrl, `/users/managed-user/${endpoint}?${query}`, {
            method,
            token,
            version,
            accept,
          });
          expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
          expect(typeof res.body).toBe('object');
          if (res.status >= 400) {
            expect(typeof res.body.message).toBe('string');
            expect((res.body.message as string).length).toBeGreaterThan(0);
          } else if (endpoint === 'create') {
            expect(Object.keys(res.body).sort()).toEqual(['access_token', 'user_id']);
          } else if (endpoint === 'refresh-token') {
            expect(Object.keys(res.body)).toEqual(['access_token']);
          } else {
            expect(res.body.deleted).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
