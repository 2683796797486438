import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANOMALY_RULE_ID, EDGE_MANAGED_RULESET_ID, OWASP_RULESET_ID } from '../src/index.ts';
import { type Answer, call, type EdgeFixture, startEdge } from './helpers.ts';

let f: EdgeFixture;
let zone: string;
const entry = (phase: string) => `/zones/${zone}/rulesets/phases/${phase}/entrypoint`;

beforeAll(async () => {
  f = await startEdge();
  zone = f.zones.enterprise.id;
  await call(f, 'PUT', entry('http_request_firewall_custom'), {
    body: { rules: [{ action: 'block', expression: 'true' }] },
  });
  await call(f, 'PUT', entry('http_request_firewall_managed'), {
    body: {
      rules: [{ action: 'execute', expression: 'true', action_parameters: { id: EDGE_MANAGED_RULESET_ID } }],
    },
  });
});
afterAll(async () => {
  await f.close();
});

/** Every error code the Rulesets API uses, by status. */
const CODES: Record<number, number[]> = {
  400: [10400, 20113, 20217, 50002],
  403: [10000, 20227],
  404: [10003, 7000, 7003],
  405: [10405],
};

function expectWellFormed(a: Answer) {
  expect(a.status, a.text).toBeLessThan(500);
  expect(typeof a.body).toBe('object');
  if (a.status >= 400) {
    expect(a.body.success).toBe(false);
    expect(a.body.result).toBeNull();
    expect(a.body.errors.length).toBeGreaterThan(0);
    const e = a.body.errors[0]!;
    expect(CODES[a.status], `status ${a.status}`).toContain(e.code);
    expect(e.message.length).toBeGreaterThan(10);
  } else {
    expect(a.body.success).toBe(true);
    expect(a.body.errors).toEqual([]);
  }
}

const expressions = fc.oneof(
  fc.constantFrom(
    'true',
    'http.host eq "a.example"',
    'ip.src in {192.0.2.0/24}',
    'http.request.uri.path contains "/admin" and not ssl',
    'any(http.request.headers.names[*] == "X-Debug")',
    'http.host eq 1',
    'http.hots eq "a"',
    '(',
    'http.host matches "^a+$"',
    '',
    'http.request.uri.path wildcard "/a/**"',
  ),
  fc.string({ maxLength: 30 }),
);
const actions = fc.oneof(
  fc.constantFrom(
    'block',
    'challenge',
    'js_challenge',
    'managed_challenge',
    'log',
    'skip',
    'execute',
    'allow',
    'rewrite',
  ),
  fc.string({ maxLength: 10 }),
);
const hexish = fc.oneof(
  fc.constantFrom(
    OWASP_RULESET_ID,
    EDGE_MANAGED_RULESET_ID,
    ANOMALY_RULE_ID,
    '23ee7cebe6e8443e99ecf932ab579455',
    '',
  ),
  fc.stringMatching(/^[0-9a-f]{32}$/),
  fc.string({ maxLength: 40 }),
);
const scalar = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.constant(null), hexish);
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { maxKeys: 3 }),
  ),
})).value;

const paramKeys = fc.constantFrom(
  'id',
  'version',
  'overrides',
  'ruleset',
  'rulesets',
  'rules',
  'phases',
  'products',
  'phase',
  'response',
  'matched_data',
  'other',
);
const overrides = fc.record(
  {
    action: fc.oneof(fc.constantFrom('block', 'log', 'skip'), scalar),
    enabled: fc.oneof(fc.boolean(), scalar),
    categories: fc.array(
      fc.record(
        {
          category: fc.oneof(fc.constantFrom('paranoia-level-2', 'log4j', 'nope'), scalar),
          enabled: fc.boolean(),
          action: fc.constantFrom('log', 'block'),
        },
        { requiredKeys: [] },
      ),
      { maxLength: 3 },
    ),
    rules: fc.array(
      fc.record(
        {
          id: hexish,
          enabled: fc.boolean(),
          action: fc.constantFrom('log', 'managed_challenge'),
          score_threshold: fc.oneof(fc.integer({ min: -5, max: 100 }), scalar),
        },
        { requiredKeys: [] },
      ),
      { maxLength: 3 },
    ),
    sensitivity_level: fc.constantFrom('default', 'low'),
  },
  { requiredKeys: [] },
);
const actionParameters = fc.oneof(
  fc.record(
    { id: hexish, version: fc.constantFrom('latest', '1', '2', 'x'), overrides },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      ruleset: fc.constantFrom('current', 'all'),
      rulesets: fc.array(hexish, { maxLength: 3 }),
      rules: fc.dictionary(hexish, fc.array(hexish, { maxLength: 2 }), { maxKeys: 2 }),
      phases: fc.array(
        fc.constantFrom(
          'http_ratelimit',
          'http_request_firewall_managed',
          'http_request_sbfm',
          'ddos_l7',
          'x',
        ),
        { maxLength: 3 },
      ),
      products: fc.array(fc.constantFrom('waf', 'bic', 'WAF', 'hot'), { maxLength: 3 }),
    },
    { requiredKeys: [] },
  ),
  fc.dictionary(paramKeys, json, { maxKeys: 3 }),
  json,
);
const rule = fc.record(
  {
    id: hexish,
    action: actions,
    expression: expressions,
    description: fc.oneof(fc.string({ maxLength: 20 }), scalar),
    enabled: fc.oneof(fc.boolean(), scalar),
    ref: fc.oneof(fc.constantFrom('a', 'b', ''), scalar),
    logging: fc.oneof(fc.record({ enabled: fc.boolean() }), json),
    action_parameters: actionParameters,
    version: fc.constantFrom('', '1'),
    colour: json,
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  fc.record(
    {
      rules: fc.array(rule, { maxLength: 4 }),
      name: fc.oneof(fc.string({ maxLength: 10 }), scalar),
      description: scalar,
    },
    { requiredKeys: ['rules'] },
  ),
  fc.record({ rules: json, kind: fc.constantFrom('zone', 'managed') }, { requiredKeys: [] }),
  json,
);

describe('Rulesets API under random input', () => {
  it('PUT entry point: never a 5xx; errors are well formed and change nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('http_request_firewall_custom', 'http_request_firewall_managed'),
        body,
        async (phase, input) => {
          const before = await call(f, 'GET', entry(phase));
          const a = await call(f, 'PUT', entry(phase), { body: input });
          expectWellFormed(a);
          const after = await call(f, 'GET', entry(phase));
          if (a.status >= 400) expect(after.body).toEqual(before.body);
          else {
            const result = a.body.result as { rules: { id: string; version: string }[]; version: string };
            expect(result).toEqual(after.body.result);
            expect(Number(result.version)).toBe(
              Number((before.body.result as { version: string }).version) + 1,
            );
            for (const r of result.rules) expect(r.id).toMatch(/^[0-9a-f]{32}$/);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('single-rule endpoints and raw bodies: never a 5xx, errors change nothing', async () => {
    const rawBodies = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom(
        '{',
        '[]',
        'null',
        '{"action":"block","expression":"true","position":{"index":1e99}}',
        '"x"',
        '{"__proto__":{"x":1}}',
      ),
      json.map((v) => JSON.stringify(v) ?? 'null'),
      rule.map((r) => JSON.stringify({ ...(r as object), position: { index: 1 } })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST', 'PATCH', 'DELETE', 'PUT', 'GET'),
        fc.boolean(),
        rawBodies,
        hexish,
        async (method, known, raw, someId) => {
          const current = (await call(f, 'GET', entry('http_request_firewall_custom'))).body.result as {
            id: string;
            rules: { id: string }[];
          };
          const ruleId = known && current.rules[0] ? current.rules[0].id : someId;
          const path =
            method === 'POST'
              ? `/zones/${zone}/rulesets/${current.id}/rules`
              : `/zones/${zone}/rulesets/${current.id}/rules/${encodeURIComponent(ruleId)}`;
          const a = await call(f, method, path, method === 'GET' ? {} : { raw });
          expectWellFormed(a);
          const after = await call(f, 'GET', entry('http_request_firewall_custom'));
          if (a.status >= 400) expect(after.body.result).toEqual(current);
        },
      ),
      { numRuns: 150 },
    );
  });

  /** A valid rule set, then exactly one defect at a known place: the answer names that place. */
  const defects: {
    name: string;
    apply(r: Record<string, unknown>): void;
    status: number;
    code: number;
    suffix: string;
    message: RegExp;
  }[] = [
    {
      name: 'unknown field',
      apply: (r) => (r.extra = 1),
      status: 400,
      code: 10400,
      suffix: '/extra',
      message: /unknown field "extra"/,
    },
    {
      name: 'bad expression',
      apply: (r) => (r.expression = 'http.host eq'),
      status: 400,
      code: 10400,
      suffix: '/expression',
      message: /could not parse filter expression: Filter parsing error/,
    },
    {
      name: 'no expression',
      apply: (r) => delete r.expression,
      status: 400,
      code: 10400,
      suffix: '/expression',
      message: /missing required field "expression"/,
    },
    {
      name: 'bad action',
      apply: (r) => (r.action = 'rewrite'),
      status: 400,
      code: 10400,
      suffix: '/action',
      message: /'rewrite' is not a valid value for action/,
    },
    {
      name: 'enabled text',
      apply: (r) => (r.enabled = 'no'),
      status: 400,
      code: 10400,
      suffix: '/enabled',
      message: /it must be true or false/,
    },
    {
      name: 'long description',
      apply: (r) => (r.description = 'x'.repeat(501)),
      status: 400,
      code: 10400,
      suffix: '/description',
      message: /at most 500 characters/,
    },
    {
      name: 'unknown id',
      apply: (r) => (r.id = '0'.repeat(32)),
      status: 400,
      code: 10400,
      suffix: '/id',
      message: /no rule with this id/,
    },
  ];
  const validRule = fc.oneof(
    fc.record({
      action: fc.constantFrom('block', 'challenge', 'managed_challenge'),
      expression: fc.constantFrom('true', 'http.host eq "a"', 'ip.src in {10.0.0.0/8}'),
      description: fc.string({ maxLength: 20 }),
    }),
    fc.constant({
      action: 'skip',
      expression: 'true',
      action_parameters: { ruleset: 'current' },
      logging: { enabled: false },
    }),
    fc.constant({ action: 'log', expression: 'true' }),
  );

  it('one defect in a valid body: the exact status, code, pointer and message; nothing saved', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(validRule, { minLength: 1, maxLength: 5 }),
        fc.nat(),
        fc.constantFrom(...defects),
        async (rules, at, defect) => {
          const i = at % rules.length;
          const copy = rules.map((r) => ({ ...r })) as Record<string, unknown>[];
          defect.apply(copy[i]!);
          const before = await call(f, 'GET', entry('http_request_firewall_custom'));
          const a = await call(f, 'PUT', entry('http_request_firewall_custom'), { body: { rules: copy } });
          expect(a.status, a.text).toBe(defect.status);
          expect(a.body.errors[0]).toMatchObject({
            code: defect.code,
            source: { pointer: `/rules/${i}${defect.suffix}` },
          });
          expect(a.body.errors[0]!.message).toMatch(defect.message);
          expect((await call(f, 'GET', entry('http_request_firewall_custom'))).body).toEqual(before.body);
        },
      ),
      { numRuns: 80 },
    );
  });
});
