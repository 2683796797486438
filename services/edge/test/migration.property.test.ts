import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANOMALY_RULE_ID, EDGE_MANAGED_RULESET_ID, OWASP_RULESET_ID, type Zone } from '../src/index.ts';
import { type Answer, call, type EdgeFixture, startEdge } from './helpers.ts';
import { freshZone, migrationPaths, storeSnapshot } from './migration-helpers.ts';

let f: EdgeFixture;
let pool: Zone[] = [];

beforeAll(async () => {
  f = await startEdge();
  for (const plan of ['free', 'pro', 'business', 'enterprise', 'enterprise', 'business'] as const) {
    const z = await freshZone(f, plan, 'prop');
    await call(f, 'PATCH', `/zones/${z.id}/settings/waf`, { body: { value: 'on' } });
    pool.push(z);
  }
  // One zone with a URI-based override (ineligible), one with a bypass firewall rule (phase 1 fails).
  await call(f, 'POST', `/zones/${pool[4]!.id}/firewall/waf/overrides`, {
    body: { urls: ['example.com/x/*'], rules: { '100001': 'disable' } },
  });
  await call(f, 'POST', `/zones/${pool[5]!.id}/firewall/rules`, {
    body: [{ filter: { expression: 'ip.src eq 192.0.2.1' }, action: 'bypass', products: ['waf'] }],
  });
  pool = [...pool];
});
afterAll(async () => {
  await f.close();
});

/** Every error code the migration PUT may answer, by status. */
const CODES: Record<number, number[]> = {
  400: [10400, 20113, 50002, 10701, 10702, 10703, 10705],
  403: [10000, 20227],
  404: [10003, 7000, 7003],
  409: [10704],
};

function expectWellFormed(a: Answer) {
  expect(a.status, a.text).toBeLessThan(500);
  if (a.status >= 400) {
    expect(a.body.success).toBe(false);
    expect(a.body.result).toBeNull();
    expect(CODES[a.status], `status ${a.status}: ${a.text}`).toContain(a.body.errors[0]!.code);
    expect(a.body.errors[0]!.message.length).toBeGreaterThan(10);
  } else {
    expect(a.body.success).toBe(true);
    expect(a.body.errors).toEqual([]);
  }
}

const scalar = fc.oneof(
  fc.string({ maxLength: 10 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('', EDGE_MANAGED_RULESET_ID, OWASP_RULESET_ID, ANOMALY_RULE_ID, 'true', 'current'),
);
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** Rules shaped like the produced configuration, with random values and slips. */
const rule = fc.record(
  {
    id: fc.oneof(fc.constant(''), scalar),
    version: fc.oneof(fc.constant(''), scalar),
    ref: fc.oneof(fc.constant(''), scalar),
    action: fc.oneof(fc.constantFrom('execute', 'skip', 'block', 'log', 'allow'), scalar),
    expression: fc.oneof(fc.constantFrom('true', 'ip.src eq 192.0.2.1', 'http.host eq', ''), scalar),
    description: scalar,
    enabled: fc.oneof(fc.boolean(), scalar),
    logging: fc.oneof(fc.record({ enabled: fc.boolean() }), json),
    action_parameters: fc.oneof(
      fc.record(
        {
          id: fc.constantFrom(EDGE_MANAGED_RULESET_ID, OWASP_RULESET_ID, 'x'),
          overrides: fc.oneof(
            fc.record({
              rules: fc.array(
                fc.record(
                  {
                    id: fc.constantFrom(ANOMALY_RULE_ID, '23ee7cebe6e8443e99ecf932ab579455', 'nope'),
                    action: fc.constantFrom('log', 'block', 'skip'),
                    enabled: fc.boolean(),
                    score_threshold: fc.integer({ min: -5, max: 2000 }),
                  },
                  { requiredKeys: ['id'] },
                ),
                { maxLength: 2 },
              ),
            }),
            json,
          ),
        },
        { requiredKeys: [] },
      ),
      fc.constant({ ruleset: 'current' }),
      json,
    ),
    extra: json,
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  fc.record(
    { rules: fc.array(rule, { maxLength: 3 }), name: fc.oneof(fc.constant('default'), scalar) },
    { requiredKeys: ['rules'] },
  ),
  fc.constant({ rules: [] }),
  json,
);
const queryValue = (values: string[]) =>
  fc.option(fc.oneof(fc.constantFrom(...values), fc.string({ maxLength: 8 })), { nil: undefined });
const query = fc.record({
  waf_migration: queryValue(['pending', '1', 'validation', '2', 'PENDING', '3', '']),
  phase_two: queryValue(['1', '0', 'true', 'yes']),
  dry_run: queryValue(['true', 'false', '1', 'maybe']),
});

const FORWARD: Record<string, string[]> = {
  default: ['default', 'complete'],
  start: ['start', 'validation', 'complete'],
  validation: ['validation', 'complete'],
  complete: ['complete'],
};

describe('the migration endpoints under random input', () => {
  it('PUT …/entrypoint with random waf_migration queries and bodies: never a 5xx; refused → nothing changed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), query, body, fc.boolean(), async (which, q, input, managed) => {
        const zone = pool[which % pool.length]!;
        const phase = managed ? 'http_request_firewall_managed' : 'http_request_firewall_custom';
        const search = new URLSearchParams();
        for (const [k, v] of Object.entries(q)) if (v !== undefined) search.set(k, v);
        const before = await storeSnapshot(f, zone.id);
        const a = await call(f, 'PUT', `/zones/${zone.id}/rulesets/phases/${phase}/entrypoint?${search}`, {
          body: input,
        });
        expectWellFormed(a);
        const after = await storeSnapshot(f, zone.id);
        if (a.status >= 400 || a.body.result === null) {
          expect(after).toEqual(before);
          return;
        }
        const from = (before.zone[0] as { waf_migration_state: string }).waf_migration_state;
        const to = (after.zone[0] as { waf_migration_state: string }).waf_migration_state;
        expect(FORWARD[from]).toContain(to);
        if (q.waf_migration === undefined || q.waf_migration === '') expect(to).toBe(from);
      }),
      { numRuns: 120 },
    );
  });

  it('GET check, config, status and history with random queries: never a 5xx, nothing changed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.constantFrom('check', 'config', 'status', 'history'),
        fc.string({ maxLength: 12 }),
        async (which, what, phaseTwo) => {
          const zone = pool[which % pool.length]!;
          const before = await storeSnapshot(f, zone.id);
          const path = `${migrationPaths(zone.id)[what]}?phase_two=${encodeURIComponent(phaseTwo)}`;
          const a = await call(f, 'GET', path);
          expect(a.status, a.text).toBeLessThan(500);
          expect(a.body.success).toBe(a.status === 200);
          expect(await storeSnapshot(f, zone.id)).toEqual(before);
        },
      ),
      { numRuns: 60 },
    );
  });
});
