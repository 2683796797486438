import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanName, Zone } from '../src/index.ts';
import { type Answer, call, type EdgeFixture, startEdge } from './helpers.ts';
import { freshZone, migrationPaths, storeSnapshot, upgradeWithConfig } from './migration-helpers.ts';

// Plan changes in the middle of the upgrade, the Rulesets API during validation mode, and the query
// parameters of the upgrade (issue 15, item 6).
let f: EdgeFixture;
beforeAll(async () => {
  f = await startEdge();
});
afterAll(() => f?.close());

const get = async (path: string) => {
  const a = await call(f, 'GET', path);
  expect(a.status, a.text).toBe(200);
  return a.body;
};
const status = async (z: Zone) => (await get(migrationPaths(z.id).status)).result as Record<string, string>;
const history = async (z: Zone) =>
  (await get(migrationPaths(z.id).history)).result as {
    from: string;
    to: string;
    cause: string;
    actor: { type: string; name: string };
    ruleset_version: string | null;
  }[];
const changePlan = (z: Zone, plan: PlanName) =>
  call(f, 'PATCH', `/zones/${z.id}`, { body: { plan: { id: plan } } });

async function inValidation(): Promise<Zone> {
  const z = await freshZone(f, 'enterprise', 'plan');
  const a = await upgradeWithConfig(f, z.id, 'validation');
  expect(a.status, a.text).toBe(200);
  return z;
}

function refusedParameter(a: Answer, parameter: string, text: RegExp) {
  expect(a.status, a.text).toBe(400);
  expect(a.body.success).toBe(false);
  expect(a.body.errors[0]?.source).toEqual({ parameter });
  expect(a.body.errors[0]?.message).toMatch(text);
}

describe('a plan change during the upgrade', () => {
  it.each<PlanName>(['pro', 'business', 'free'])(
    'Enterprise in validation mode → %s: validation ends, the upgrade completes (recorded, said in the answer)',
    async (plan) => {
      const z = await inValidation();
      const a = await changePlan(z, plan);
      expect(a.status, a.text).toBe(200);
      expect(a.body.messages).toEqual([
        {
          code: 10717,
          message: expect.stringMatching(
            /validation mode needs the Enterprise plan.*migration_state validation → complete.*previous version is disabled/,
          ),
        },
      ]);
      expect(await status(z)).toMatchObject({
        old_waf_status: 'disabled',
        new_waf_status: 'enabled',
        migration_state: 'complete',
      });
      expect((await history(z)).at(-1)).toMatchObject({
        from: 'validation',
        to: 'complete',
        cause: 'plan',
        actor: { type: 'system', name: `plan change from enterprise to ${plan}` },
      });
    },
  );

  it('Enterprise in validation mode → Enterprise again (or another field): nothing moves', async () => {
    const z = await inValidation();
    const a = await call(f, 'PATCH', `/zones/${z.id}`, {
      body: { plan: { id: 'enterprise' }, paused: false },
    });
    expect(a.status, a.text).toBe(200);
    expect(a.body.messages).toEqual([]);
    expect((await status(z)).migration_state).toBe('validation');
  });

  it('a paid zone not upgraded → Free keeps its state and its previous configuration; check says so truly', async () => {
    const z = await freshZone(f, 'pro', 'plan');
    await call(f, 'PATCH', `/zones/${z.id}/settings/waf`, { body: { value: 'on' } });
    expect((await changePlan(z, 'free')).status).toBe(200);
    const check = await get(`${migrationPaths(z.id).check}?phase_two=1`);
    expect(check.result).toEqual({ compatible: true, migration_state: 'start' });
    const text = JSON.stringify(check.messages);
    expect(text).not.toMatch(/never had/);
    expect(check.messages).toEqual([
      {
        code: 10714,
        message: expect.stringMatching(
          /is on the Free plan, where the previous WAF managed rules do not run: its configuration is kept/,
        ),
      },
    ]);
    const config = await get(`${migrationPaths(z.id).config}?phase_two=1`);
    expect(JSON.stringify(config.messages)).not.toMatch(/never had/);
    expect(await status(z)).toMatchObject({ old_waf_status: 'disabled', migration_state: 'start' });
    // Back on a paid plan, the previous WAF runs again with what was configured.
    expect((await changePlan(z, 'pro')).status).toBe(200);
    expect(await status(z)).toMatchObject({ old_waf_status: 'enabled', migration_state: 'start' });
  });
});

describe('the Rulesets API during validation mode', () => {
  it('a plain entry-point PUT and single-rule writes are recorded in the upgrade history', async () => {
    const z = await inValidation();
    const p = migrationPaths(z.id);
    const before = (await history(z)).length;
    const put = await call(f, 'PUT', p.entrypoint, {
      body: { rules: [{ action: 'block', expression: 'http.request.uri.path eq "/admin"' }] },
    });
    expect(put.status, put.text).toBe(200);
    const rs = put.body.result as { id: string; version: string };
    const added = await call(f, 'POST', `/zones/${z.id}/rulesets/${rs.id}/rules`, {
      body: { action: 'log', expression: 'http.request.uri.path eq "/x"' },
    });
    expect(added.status, added.text).toBe(200);
    const after = await history(z);
    expect(after).toHaveLength(before + 2);
    expect(after.slice(-2)).toEqual([
      expect.objectContaining({
        from: 'validation',
        to: 'validation',
        cause: 'rulesets',
        actor: expect.objectContaining({ type: 'api_token' }),
        ruleset_version: rs.version,
      }),
      expect.objectContaining({ cause: 'rulesets', ruleset_version: String(Number(rs.version) + 1) }),
    ]);
  });

  it('not recorded: a dry run, another phase, and the managed entry point before validation mode', async () => {
    const z = await inValidation();
    const p = migrationPaths(z.id);
    const before = (await history(z)).length;
    const body = { rules: [{ action: 'block', expression: 'http.request.uri.path eq "/admin"' }] };
    expect((await call(f, 'PUT', `${p.entrypoint}?dry_run=true`, { body })).status).toBe(200);
    const custom = `/zones/${z.id}/rulesets/phases/http_request_firewall_custom/entrypoint`;
    expect((await call(f, 'PUT', custom, { body })).status).toBe(200);
    expect(await history(z)).toHaveLength(before);
    const notYet = await freshZone(f, 'enterprise', 'plan');
    expect((await call(f, 'PUT', migrationPaths(notYet.id).entrypoint, { body })).status).toBe(200);
    expect(await history(notYet)).toEqual([]);
  });
});

describe('the upgrade query parameters', () => {
  it('phase_two=2 is told that phase_two is a flag (1 selects phase 2), on every migration endpoint', async () => {
    const z = await freshZone(f, 'pro', 'plan');
    const p = migrationPaths(z.id);
    for (const path of [`${p.check}?phase_two=2`, `${p.config}?phase_two=2`]) {
      refusedParameter(
        await call(f, 'GET', path),
        'phase_two',
        /phase_two=1 selects the phase 2 procedure.*not "2"/,
      );
    }
    const before = await storeSnapshot(f, z.id);
    const put = await call(f, 'PUT', `${p.entrypoint}?waf_migration=pending&phase_two=2`, {
      body: { rules: [] },
    });
    refusedParameter(put, 'phase_two', /phase_two=1 selects the phase 2 procedure/);
    expect(await storeSnapshot(f, z.id)).toEqual(before);
  });

  it('an empty waf_migration is refused, not taken for a plain Rulesets API write', async () => {
    const z = await freshZone(f, 'pro', 'plan');
    const before = await storeSnapshot(f, z.id);
    const a = await call(f, 'PUT', `${migrationPaths(z.id).entrypoint}?waf_migration=&phase_two=1`, {
      body: { rules: [] },
    });
    refusedParameter(a, 'waf_migration', /waf_migration is empty.*pending.*validation/);
    expect(await storeSnapshot(f, z.id)).toEqual(before);
  });
});
