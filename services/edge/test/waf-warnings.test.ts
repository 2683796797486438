import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAF_WARNING_CODE } from '../src/api/rulesets/waf-warnings.ts';
import { ANOMALY_RULE_ID, OWASP_RULESET_ID } from '../src/index.ts';
import { call, type EdgeFixture, startEdge } from './helpers.ts';

// Issue 40, point 6: a WAF configuration that can never block is refused or said so in the answer.

let f: EdgeFixture;
let zone: string;
const entrypoint = () => `/zones/${zone}/rulesets/phases/http_request_firewall_managed/entrypoint`;
const owasp = (overrides: unknown) => ({
  body: {
    rules: [
      { action: 'execute', expression: 'true', action_parameters: { id: OWASP_RULESET_ID, overrides } },
    ],
  },
});
/** Our warnings, apart from the migration's "not in effect yet" message on a zone not upgraded. */
const warnings = (messages: unknown) =>
  (messages as { code: number }[]).filter((m) => m.code === WAF_WARNING_CODE);
const allLevelsOff = [1, 2, 3, 4].map((n) => ({ category: `paranoia-level-${n}`, enabled: false }));

beforeAll(async () => {
  f = await startEdge();
  zone = f.zones.business.id;
}, 180_000);
afterAll(async () => {
  await f?.close();
});

describe('OWASP configurations that can never block', () => {
  it('disabling every paranoia level is refused with a 400 naming the problem and the fix', async () => {
    const res = await call(f, 'PUT', entrypoint(), owasp({ categories: allLevelsOff }));
    expect(res.status).toBe(400);
    const error = (res.body.errors as { message: string; source?: { pointer: string } }[])[0];
    expect(error?.message).toMatch(/disable every paranoia level/);
    expect(error?.message).toMatch(/keep paranoia-level-1 enabled/);
    expect(error?.source?.pointer).toBe('/rules/0/action_parameters/overrides/categories');
  });

  it('an anomaly rule that only logs is kept, with a warning in messages', async () => {
    const res = await call(
      f,
      'PUT',
      entrypoint(),
      owasp({ rules: [{ id: ANOMALY_RULE_ID, action: 'log' }] }),
    );
    expect(res.status).toBe(200);
    expect(warnings(res.body.messages)).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/can never block: .*only logs/) }),
    ]);
  });

  it('the entry point read back (what the dashboard shows) carries the same warning', async () => {
    await call(f, 'PUT', entrypoint(), owasp({ rules: [{ id: ANOMALY_RULE_ID, action: 'log' }] }));
    const read = await call(f, 'GET', entrypoint());
    expect(read.status).toBe(200);
    expect(warnings(read.body.messages)).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/can never block: .*only logs/) }),
    ]);
  });

  it('a threshold above every reachable score is kept, with a warning', async () => {
    const res = await call(
      f,
      'PUT',
      entrypoint(),
      owasp({
        categories: allLevelsOff.slice(1),
        rules: [{ id: ANOMALY_RULE_ID, score_threshold: 1000 }],
      }),
    );
    expect(res.status).toBe(200);
    expect(warnings(res.body.messages)).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/score_threshold 1000 is above \d+/) }),
    ]);
  });

  it('the default deployment and PL2 at threshold 25 give no warning', async () => {
    const plain = await call(
      f,
      'PUT',
      entrypoint(),
      owasp({ rules: [{ id: ANOMALY_RULE_ID, score_threshold: 25 }] }),
    );
    expect(plain.status).toBe(200);
    expect(warnings(plain.body.messages)).toEqual([]);
  });
});
