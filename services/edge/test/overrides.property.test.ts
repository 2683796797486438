import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, call, type EdgeFixture, startEdge } from './helpers.ts';

let f: EdgeFixture;
let base: string;
let groupId: string;

beforeAll(async () => {
  f = await startEdge();
  base = `/zones/${f.zones.pro.id}/firewall/waf/overrides`;
  const packages = (await call(f, 'GET', `/zones/${f.zones.pro.id}/firewall/waf/packages`)).body.result as {
    id: string;
  }[];
  const groups = await call(
    f,
    'GET',
    `/zones/${f.zones.pro.id}/firewall/waf/packages/${packages[0]!.id}/groups`,
  );
  groupId = (groups.body.result as { id: string }[])[0]!.id;
});
afterAll(async () => {
  await f.close();
});

function expectWellFormed(a: Answer) {
  expect(a.status, a.text).toBeLessThan(500);
  if (a.status >= 400) {
    expect(a.body).toMatchObject({ success: false, result: null });
    expect([10400, 7000, 7003, 50002, 10405, 10000, 10503]).toContain(a.body.errors[0]!.code);
    expect(a.body.errors[0]!.message.length).toBeGreaterThan(10);
  } else expect(a.body.success).toBe(true);
}

const scalar = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.constant(null));
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 3 }),
  ),
})).value;
const mode = fc.oneof(fc.constantFrom('block', 'challenge', 'simulate', 'disable', 'default', 'on'), scalar);
const ruleKey = fc.oneof(
  fc.constantFrom('100031', '100001', '942100', '999999', 'abc', ''),
  fc.string({ maxLength: 6 }),
);
const override = fc
  .record(
    {
      id: fc.oneof(fc.stringMatching(/^[0-9a-f]{32}$/), scalar),
      urls: fc.oneof(
        fc.array(
          fc.oneof(fc.constantFrom('pro.example.com/*', 'a b', '', '*'), fc.string({ maxLength: 20 })),
          { maxLength: 3 },
        ),
        json,
      ),
      rules: fc.oneof(fc.dictionary(ruleKey, mode, { maxKeys: 3 }), json),
      groups: fc.oneof(
        fc.dictionary(fc.oneof(fc.constant('GROUP'), fc.stringMatching(/^[0-9a-f]{32}$/)), mode, {
          maxKeys: 2,
        }),
        json,
      ),
      rewrite_action: fc.oneof(
        fc.dictionary(fc.constantFrom('block', 'challenge', 'default', 'disable', 'simulate', 'x'), mode, {
          maxKeys: 3,
        }),
        json,
      ),
      priority: fc.oneof(fc.integer({ min: -2e9, max: 2e9 }), scalar),
      paused: fc.oneof(fc.boolean(), scalar),
      description: fc.oneof(fc.string({ maxLength: 30 }), scalar),
      other: json,
    },
    { requiredKeys: [] },
  )
  .map((o) =>
    o.groups && typeof o.groups === 'object' && 'GROUP' in o.groups
      ? { ...o, groups: { [groupId]: (o.groups as Record<string, unknown>).GROUP } }
      : o,
  );

describe('URI-based WAF overrides under random input', () => {
  it('create and replace: never a 5xx; a refused request changes nothing; an accepted one reads back', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST', 'PUT', 'PUT-existing', 'DELETE'),
        fc.oneof(override, json),
        async (kind, input) => {
          const before = await call(f, 'GET', `${base}?per_page=100`);
          const existing = (before.body.result as { id: string }[])[0]?.id;
          const target =
            kind === 'POST'
              ? base
              : `${base}/${kind === 'PUT-existing' && existing ? existing : encodeURIComponent(String((input as { id?: unknown })?.id ?? 'x'))}`;
          const method = kind === 'PUT-existing' ? 'PUT' : kind;
          const a = await call(f, method, target, method === 'DELETE' ? {} : { body: input });
          expectWellFormed(a);
          const after = await call(f, 'GET', `${base}?per_page=100`);
          if (a.status >= 400) expect(after.body.result).toEqual(before.body.result);
          else if (method !== 'DELETE') {
            const saved = a.body.result as { id: string };
            expect((await call(f, 'GET', `${base}/${saved.id}`)).body.result).toEqual(saved);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  const valid = { urls: ['pro.example.com/admin/*'], rules: { '100031': 'disable' } };
  const defects: [string, (o: Record<string, unknown>) => void, string, RegExp][] = [
    ['no urls', (o) => delete o.urls, '/urls', /missing required field "urls"/],
    ['empty urls', (o) => (o.urls = []), '/urls', /it must not be empty/],
    ['url with a space', (o) => (o.urls = ['a b']), '/urls/0', /without spaces/],
    ['unknown rule', (o) => (o.rules = { '999999': 'block' }), '/rules/999999', /no WAF rule has this id/],
    ['bad rule id', (o) => (o.rules = { abc: 'block' }), '/rules/abc', /it must be a WAF rule id/],
    [
      'bad mode',
      (o) => (o.rules = { '100031': 'allow' }),
      '/rules/100031',
      /it must be one of challenge, block, simulate, disable, default/,
    ],
    [
      'bad rewrite key',
      (o) => (o.rewrite_action = { allow: 'block' }),
      '/rewrite_action/allow',
      /unknown field "allow"/,
    ],
    ['priority too big', (o) => (o.priority = 2e9), '/priority', /it must be from -1000000000 to 1000000000/],
    ['unknown field', (o) => (o.note = 'x'), '/note', /unknown field "note"/],
  ];
  it('one defect: 400/10400 with the exact pointer and message', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...defects), async ([, apply, pointer, message]) => {
        const body: Record<string, unknown> = structuredClone(valid);
        apply(body);
        const before = await call(f, 'GET', `${base}?per_page=100`);
        const a = await call(f, 'POST', base, { body });
        expect(a.status, a.text).toBe(400);
        expect(a.body.errors[0]).toMatchObject({ code: 10400, source: { pointer } });
        expect(a.body.errors[0]!.message).toMatch(message);
        expect((await call(f, 'GET', `${base}?per_page=100`)).body.result).toEqual(before.body.result);
      }),
      { numRuns: 30 },
    );
  });
});
