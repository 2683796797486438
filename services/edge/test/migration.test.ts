import Cloudflare from 'cloudflare';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MANAGED_PACKAGE_ID, OWASP_PACKAGE_ID, type PlanName, type Zone } from '../src/index.ts';
import { type Answer, call, type EdgeFixture, startEdge } from './helpers.ts';
import {
  freshZone,
  holdUpgrade,
  migrationPaths,
  storeSnapshot,
  upgradeWithConfig,
} from './migration-helpers.ts';
import { type Exchange, OpenApiChecker, recordingFetch } from './openapi-check.ts';

let f: EdgeFixture;
beforeAll(async () => {
  f = await startEdge();
});
afterAll(async () => {
  await f.close();
});
let hold: ReturnType<typeof holdUpgrade> | undefined;
afterEach(() => {
  hold?.uninstall();
  hold = undefined;
});

const get = async (path: string) => {
  const a = await call(f, 'GET', path);
  expect(a.status, a.text).toBe(200);
  return a.body;
};
const status = async (z: Zone) =>
  (await get(migrationPaths(z.id).status)).result as {
    migration_state: string;
    created: string;
    modified_on: string;
  };
const history = async (z: Zone) =>
  (await get(migrationPaths(z.id).history)).result as { from: string; to: string; cause: string }[];
const check = async (z: Zone, phaseTwo = true) =>
  get(`${migrationPaths(z.id).check}${phaseTwo ? '?phase_two=1' : ''}`);

function refused(a: Answer, statusCode: number, code: number, text: RegExp) {
  expect(a.status, a.text).toBe(statusCode);
  expect(a.body.success).toBe(false);
  expect(a.body.errors[0]!.code).toBe(code);
  expect(a.body.errors[0]!.message).toMatch(text);
}

const statusOf = (old: string, now: string, state: string, source: string) => ({
  old_waf_status: old,
  new_waf_status: now,
  migration_state: state,
  source,
  created: expect.any(String),
  modified_on: expect.any(String),
});

/** What the upgrade may not touch when it refuses. */
async function unchangedBy(z: Zone, request: () => Promise<Answer>): Promise<Answer> {
  const before = await storeSnapshot(f, z.id);
  const a = await request();
  expect(await storeSnapshot(f, z.id)).toEqual(before);
  return a;
}

async function addUriOverride(z: Zone): Promise<string> {
  const a = await call(f, 'POST', `/zones/${z.id}/firewall/waf/overrides`, {
    body: { urls: ['example.com/legacy/*'], rules: { '100001': 'disable' } },
  });
  expect(a.status, a.text).toBe(200);
  return (a.body.result as { id: string }).id;
}

async function expectPreviousWafGone(z: Zone) {
  const pkg = `/zones/${z.id}/firewall/waf/packages/${MANAGED_PACKAGE_ID}`;
  const groups = `${pkg}/groups`;
  const someId = 'a'.repeat(32);
  const calls: [string, string, unknown?][] = [
    ['GET', `/zones/${z.id}/firewall/waf/packages`],
    ['GET', pkg],
    ['PATCH', `/zones/${z.id}/firewall/waf/packages/${OWASP_PACKAGE_ID}`, { sensitivity: 'low' }],
    ['GET', groups],
    ['GET', `${groups}/${someId}`],
    ['PATCH', `${groups}/${someId}`, { mode: 'off' }],
    ['GET', `${pkg}/rules`],
    ['GET', `${pkg}/rules/100001`],
    ['PATCH', `${pkg}/rules/100001`, { mode: 'block' }],
    ['GET', `/zones/${z.id}/firewall/waf/overrides`],
    [
      'POST',
      `/zones/${z.id}/firewall/waf/overrides`,
      { urls: ['example.com/*'], rules: { '100001': 'block' } },
    ],
    ['GET', `/zones/${z.id}/firewall/waf/overrides/${someId}`],
    [
      'PUT',
      `/zones/${z.id}/firewall/waf/overrides/${someId}`,
      { id: someId, urls: ['a.example/*'], rules: {}, rewrite_action: {} },
    ],
    ['DELETE', `/zones/${z.id}/firewall/waf/overrides/${someId}`],
  ];
  for (const [method, path, body] of calls) {
    const a = await call(f, method, path, body === undefined ? {} : { body });
    refused(
      a,
      400,
      10706,
      /uses the new WAF Managed Rules since .*no longer works\. Use the Rulesets API: \/zones\/[0-9a-f]{32}\/rulesets\/phases\/http_request_firewall_managed\/entrypoint/,
    );
  }
}

/** After the upgrade the previous WAF's switches are accepted, and the answer says they do nothing. */
async function expectSwitchesInert(z: Zone) {
  const setting = await call(f, 'PATCH', `/zones/${z.id}/settings/waf`, { body: { value: 'on' } });
  expect(setting.status, setting.text).toBe(200);
  expect(setting.body.messages).toEqual([
    { code: 10715, message: expect.stringMatching(/^the waf setting no longer affects anything/) },
  ]);
  const page = await call(f, 'POST', `/zones/${z.id}/pagerules`, {
    body: {
      targets: [{ target: 'url', constraint: { operator: 'matches', value: 'example.com/*' } }],
      actions: [{ id: 'waf', value: 'off' }],
      status: 'active',
    },
  });
  expect(page.status, page.text).toBe(200);
  expect(page.body.messages).toEqual([
    {
      code: 10715,
      message: expect.stringMatching(
        /Web Application Firewall action of page rule [0-9a-f]{32} no longer affects anything/,
      ),
    },
  ]);
}

async function expectIrreversible(z: Zone) {
  const p = migrationPaths(z.id);
  for (const mode of ['pending', '1', 'validation', '2']) {
    const a = await unchangedBy(z, () => upgradeWithConfig(f, z.id, mode, { body: { rules: [] } }));
    refused(a, 409, 10704, /was already upgraded .* the upgrade is irreversible/);
  }
  expect((await check(z)).result).toEqual({ compatible: false, migration_state: 'complete' });
  refused(await call(f, 'GET', `${p.config}?phase_two=1`), 409, 10704, /already upgraded/);
  // A plan change moves nothing back either.
  const plan = await call(f, 'PATCH', `/zones/${z.id}`, { body: { plan: { id: 'free' } } });
  expect(plan.status, plan.text).toBe(200);
  expect((await status(z)).migration_state).toBe('complete');
}

describe.each<PlanName>(['pro', 'business'])('%s: not upgraded → upgraded (no validation mode)', (plan) => {
  it('walks every row of the state-transition table that applies', async () => {
    const z = await freshZone(f, plan);
    const p = migrationPaths(z.id);
    expect(await status(z)).toEqual(statusOf('enabled', 'disabled', 'start', 'defaults'));
    expect((await check(z)).result).toEqual({ compatible: true, migration_state: 'start' });

    // Zone with URI-based overrides → (delete them) → not upgraded, eligible.
    const override = await addUriOverride(z);
    const blocked = await check(z);
    expect(blocked.result).toEqual({ compatible: false, migration_state: 'start' });
    expect(blocked.messages).toEqual([
      { code: 10718, message: expect.stringContaining(`it has URI-based WAF overrides (${override})`) },
    ]);
    refused(
      await unchangedBy(z, () => upgradeWithConfig(f, z.id, 'pending')),
      400,
      10701,
      new RegExp(`cannot be upgraded: it has URI-based WAF overrides \\(${override}\\).*Delete them first`),
    );
    expect((await call(f, 'DELETE', `/zones/${z.id}/firewall/waf/overrides/${override}`)).status).toBe(200);
    expect((await check(z)).result).toEqual({ compatible: true, migration_state: 'start' });

    // Not upgraded → validation: Enterprise only.
    for (const mode of ['validation', '2']) {
      refused(
        await unchangedBy(z, () => upgradeWithConfig(f, z.id, mode)),
        400,
        50002,
        new RegExp(
          `validation mode .* needs the Enterprise plan, and zone ${z.name} is on ${plan === 'pro' ? 'Pro' : 'Business'}`,
        ),
      );
    }

    // Not upgraded → PUT pending (phase_two=1) → upgraded; the previous version is disabled.
    f.clock.advance(60_000);
    const done = await upgradeWithConfig(f, z.id, plan === 'pro' ? 'pending' : '1');
    expect(done.status, done.text).toBe(200);
    expect(done.body.messages).toEqual([
      { code: 10717, message: expect.stringContaining('start → complete') },
    ]);
    expect(await status(z)).toEqual(statusOf('disabled', 'enabled', 'complete', 'zone'));
    const s = await status(z);
    expect(Date.parse(s.modified_on) - Date.parse(s.created)).toBe(60_000);
    expect(await history(z)).toEqual([
      {
        seq: 1,
        from: 'start',
        to: 'complete',
        cause: 'pending',
        phase_two: true,
        actor: { type: 'api_token', id: expect.stringMatching(/^[0-9a-f]{32}$/), name: 'test' },
        ruleset_id: (done.body.result as { id: string }).id,
        ruleset_version: '1',
        at: s.modified_on,
      },
    ]);
    await expectPreviousWafGone(z);
    await expectSwitchesInert(z);
    await expectIrreversible(z);
    // The Rulesets API keeps working, without waf_migration.
    const later = await call(f, 'PUT', p.entrypoint, { body: { rules: [] } });
    expect(later.status, later.text).toBe(200);
    expect(later.body.messages).toEqual([]);
  });
});

describe('enterprise: validation mode, adjusted, then finished', () => {
  it('not upgraded → validation → (adjusted) → upgraded', async () => {
    const z = await freshZone(f, 'enterprise');
    const p = migrationPaths(z.id);
    expect(await status(z)).toEqual(statusOf('enabled', 'disabled', 'start', 'defaults'));
    const config = (await get(`${p.config}?phase_two=1`)).result as {
      name: string;
      rules: Record<string, unknown>[];
    };
    // The validation-mode body: the rules without id, version and ref.
    const body = {
      name: config.name,
      rules: config.rules.map(({ id: _i, version: _v, ref: _r, ...rest }) => rest),
    };
    const v = await upgradeWithConfig(f, z.id, 'validation', { body });
    expect(v.status, v.text).toBe(200);
    expect(v.body.messages).toEqual([
      { code: 10717, message: expect.stringContaining('start → validation') },
    ]);
    expect(await status(z)).toEqual(statusOf('enabled', 'enabled', 'validation', 'zone'));
    expect((await check(z)).result).toEqual({ compatible: true, migration_state: 'validation' });
    // Both run: the previous WAF's API still works in validation mode.
    expect((await call(f, 'GET', `/zones/${z.id}/firewall/waf/packages`)).status).toBe(200);
    const setting = await call(f, 'PATCH', `/zones/${z.id}/settings/waf`, { body: { value: 'on' } });
    expect(setting.body.messages).toEqual([]);

    // Adjust: an override that disables a rule and one that changes an action, in validation mode again.
    const adjusted = structuredClone(body) as unknown as {
      rules: { action_parameters: Record<string, unknown> }[];
    };
    adjusted.rules[0]!.action_parameters.overrides = {
      rules: [
        { id: '23ee7cebe6e8443e99ecf932ab579455', enabled: false },
        { id: f.edge.deps.catalogue.edge.rules()[0]!.id, action: 'log' },
      ],
    };
    const again = await upgradeWithConfig(f, z.id, '2', { body: adjusted });
    expect(again.status, again.text).toBe(200);
    expect(again.body.messages).toEqual([
      { code: 10717, message: expect.stringContaining('stays in validation mode') },
    ]);
    // …or with the plain Rulesets API: allowed in validation mode too.
    const plain = await call(f, 'PUT', p.entrypoint, { body: adjusted });
    expect(plain.status, plain.text).toBe(200);

    const entry = (await get(p.entrypoint)).result as { rules: Record<string, unknown>[] };
    const done = await upgradeWithConfig(f, z.id, 'pending', { body: { rules: entry.rules } });
    expect(done.status, done.text).toBe(200);
    expect(done.body.messages).toEqual([
      { code: 10717, message: expect.stringContaining('validation → complete') },
    ]);
    expect(await status(z)).toEqual(statusOf('disabled', 'enabled', 'complete', 'zone'));
    expect((await history(z)).map((e) => [e.from, e.to, e.cause])).toEqual([
      ['start', 'validation', 'validation'],
      ['validation', 'validation', 'validation'],
      ['validation', 'validation', 'rulesets'],
      ['validation', 'complete', 'pending'],
    ]);
    const rules = (
      (await get(p.entrypoint)).result as { rules: { action_parameters?: { overrides?: unknown } }[] }
    ).rules;
    expect(rules[0]!.action_parameters?.overrides).toEqual(adjusted.rules[0]!.action_parameters.overrides);
    await expectPreviousWafGone(z);
    await expectSwitchesInert(z);
    await expectIrreversible(z);
  });

  it('not upgraded → upgraded directly (pending, without validation mode)', async () => {
    const z = await freshZone(f, 'enterprise');
    const done = await upgradeWithConfig(f, z.id, '1');
    expect(done.status, done.text).toBe(200);
    expect((await history(z)).map((e) => [e.from, e.to])).toEqual([['start', 'complete']]);
    await expectIrreversible(z);
  });
});

describe('free: never had the previous WAF', () => {
  it('is eligible with nothing to convert; no validation mode; pending records the switch', async () => {
    const z = await freshZone(f, 'free');
    expect(await status(z)).toEqual(statusOf('disabled', 'enabled', 'default', 'defaults'));
    const c = await check(z);
    expect(c.result).toEqual({ compatible: true, migration_state: 'default' });
    expect(c.messages).toEqual([
      { code: 10714, message: expect.stringContaining('never had the previous WAF') },
    ]);
    refused(await unchangedBy(z, () => upgradeWithConfig(f, z.id, 'validation')), 400, 50002, /is on Free/);
    const done = await upgradeWithConfig(f, z.id, 'pending');
    expect(done.status, done.text).toBe(200);
    expect(await status(z)).toEqual(statusOf('disabled', 'enabled', 'complete', 'zone'));
    await expectIrreversible(z);
  });

  it('a Free zone moved to a paid plan gets the previous WAF: default → start, recorded', async () => {
    const z = await freshZone(f, 'free');
    expect((await call(f, 'PATCH', `/zones/${z.id}`, { body: { plan: { id: 'pro' } } })).status).toBe(200);
    expect(await status(z)).toEqual(statusOf('enabled', 'disabled', 'start', 'defaults'));
    expect(await history(z)).toEqual([
      expect.objectContaining({
        from: 'default',
        to: 'start',
        cause: 'plan',
        actor: { type: 'system', id: null, name: 'plan change from free to pro' },
      }),
    ]);
  });
});

describe('phase 1 and phase 2 eligibility', () => {
  it('without phase_two=1 the phase 1 criteria apply; with it, only URI-based overrides matter', async () => {
    const z = await freshZone(f, 'business');
    await call(f, 'PATCH', `/zones/${z.id}/settings/waf`, { body: { value: 'on' } });
    const fw = await call(f, 'POST', `/zones/${z.id}/firewall/rules`, {
      body: [{ filter: { expression: 'ip.src eq 192.0.2.1' }, action: 'bypass', products: ['waf'] }],
    });
    const fwId = (fw.body.result as { id: string }[])[0]!.id;
    const page = await call(f, 'POST', `/zones/${z.id}/pagerules`, {
      body: {
        targets: [{ target: 'url', constraint: { operator: 'matches', value: 'example.com/*' } }],
        actions: [{ id: 'disable_security' }],
        status: 'active',
      },
    });
    const pageId = (page.body.result as { id: string }).id;
    const one = await check(z, false);
    expect(one.result).toEqual({ compatible: false, migration_state: 'start' });
    expect(one.messages.map((m) => (m as { message: string }).message)).toEqual([
      expect.stringContaining('OWASP ModSecurity Core Rule Set enabled (sensitivity high)'),
      expect.stringContaining(`firewall rules bypass the WAF managed rules (${fwId})`),
      expect.stringContaining(`page rules disable security or turn the WAF on or off (${pageId})`),
    ]);
    expect((await check(z, true)).result).toEqual({ compatible: true, migration_state: 'start' });
    refused(
      await unchangedBy(z, () => upgradeWithConfig(f, z.id, 'pending', { phaseTwo: false })),
      400,
      10705,
      /does not meet the phase 1 criteria.*Add phase_two=1/,
    );
    expect((await upgradeWithConfig(f, z.id, 'pending')).status).toBe(200);
  });

  it('a zone meeting the phase 1 criteria upgrades without phase_two', async () => {
    const z = await freshZone(f, 'pro');
    await call(f, 'PATCH', `/zones/${z.id}/settings/waf`, { body: { value: 'on' } });
    await call(f, 'PATCH', `/zones/${z.id}/firewall/waf/packages/${OWASP_PACKAGE_ID}`, {
      body: { sensitivity: 'off' },
    });
    expect((await check(z, false)).result).toEqual({ compatible: true, migration_state: 'start' });
    const a = await upgradeWithConfig(f, z.id, 'pending', { phaseTwo: false });
    expect(a.status, a.text).toBe(200);
    expect((await history(z))[0]).toMatchObject({ phase_two: false, cause: 'pending' });
  });
});

describe("the seed's limits: the upgrade fails, names the limit and the rule, changes nothing", () => {
  const bypass = (expression: string, description = '') => ({
    filter: { expression },
    action: 'bypass',
    products: ['waf'],
    description,
  });

  it('more than 200 firewall rules to migrate', async () => {
    const z = await freshZone(f, 'enterprise');
    for (let batch = 0; batch < 3; batch++) {
      const rules = Array.from({ length: batch < 2 ? 100 : 1 }, (_, i) => ({
        ...bypass(`ip.src eq 10.0.${batch}.${i}`, `rule ${batch * 100 + i + 1}`),
        priority: batch * 100 + i + 1,
      }));
      const a = await call(f, 'POST', `/zones/${z.id}/firewall/rules`, { body: rules });
      expect(a.status, a.text).toBe(200);
    }
    const last = (await call(f, 'GET', `/zones/${z.id}/firewall/rules?description=rule 201`)).body.result as {
      id: string;
    }[];
    const c = await check(z);
    expect(c.result).toEqual({ compatible: true, migration_state: 'start' });
    expect(c.messages).toEqual([
      {
        code: 10713,
        message: expect.stringMatching(
          /^the upgrade will fail: The number of firewall rules to migrate exceeds 200/,
        ),
      },
    ]);
    for (const mode of ['pending', 'validation']) {
      const a = await unchangedBy(z, () => upgradeWithConfig(f, z.id, mode, { body: { rules: [] } }));
      refused(
        a,
        400,
        10702,
        new RegExp(
          `^The number of firewall rules to migrate exceeds 200: this zone has 201 firewall rules with Bypass > WAF Managed Rules, and firewall rule ${last[0]!.id} \\("rule 201"\\) is number 201\\. The upgrade was not applied and nothing was changed; contact support to upgrade this zone\\.$`,
        ),
      );
    }
    // Exactly 200 is fine.
    expect((await call(f, 'DELETE', `/zones/${z.id}/firewall/rules/${last[0]!.id}`)).status).toBe(200);
    expect((await upgradeWithConfig(f, z.id, 'pending')).status).toBe(200);
  }, 60_000);

  it('a firewall rule expression longer than 4 KB', async () => {
    const z = await freshZone(f, 'business');
    const sized = (bytes: number) => {
      const head = 'http.request.uri.path eq "';
      return `${head}${'a'.repeat(bytes - head.length - 1)}"`;
    };
    const made = await call(f, 'POST', `/zones/${z.id}/firewall/rules`, {
      body: [
        bypass(sized(4096), 'at the limit'),
        bypass(sized(4097), 'too long'),
        { filter: { expression: sized(6000) }, action: 'block' },
      ],
    });
    expect(made.status, made.text).toBe(200);
    const [, long] = (made.body.result as { id: string }[]).map((r) => r.id);
    refused(
      await unchangedBy(z, () => upgradeWithConfig(f, z.id, 'pending', { body: { rules: [] } })),
      400,
      10703,
      new RegExp(
        `^The length of a firewall rule expression is longer than 4 KB: firewall rule ${long} \\("too long"\\) has an expression of 4097 bytes, and at most 4096 bytes can be migrated\\. .*contact support`,
      ),
    );
    // The block rule is not migrated, so its length does not matter; 4096 bytes exactly is fine.
    expect((await call(f, 'DELETE', `/zones/${z.id}/firewall/rules/${long}`)).status).toBe(200);
    const ok = await upgradeWithConfig(f, z.id, 'pending');
    expect(ok.status, ok.text).toBe(200);
  });
});

describe('the entry-point PUT around waf_migration', () => {
  it('needs waf:edit as well, the managed phase, and keeps dry_run', async () => {
    const z = await freshZone(f, 'pro');
    const p = migrationPaths(z.id);
    const rulesetsOnly = await f.makeToken([z.id], ['rulesets:edit', 'waf:read']);
    refused(
      await unchangedBy(z, () => upgradeWithConfig(f, z.id, 'pending', { token: rulesetsOnly })),
      403,
      10000,
      /also needs the permission waf:edit/,
    );
    const custom = await unchangedBy(z, () =>
      call(
        f,
        'PUT',
        `/zones/${z.id}/rulesets/phases/http_request_firewall_custom/entrypoint?waf_migration=pending&phase_two=1`,
        {
          body: { rules: [] },
        },
      ),
    );
    refused(
      custom,
      400,
      10400,
      /waf_migration applies to the http_request_firewall_managed entry point only/,
    );
    expect(custom.body.errors[0]!.source).toEqual({ parameter: 'waf_migration' });
    refused(
      await unchangedBy(z, () => upgradeWithConfig(f, z.id, 'later')),
      400,
      10400,
      /Query parameter waf_migration must be one of pending, 1, validation, 2, not "later"/,
    );
    const dry = await unchangedBy(z, () =>
      call(f, 'PUT', `${p.entrypoint}?waf_migration=pending&phase_two=1&dry_run=true`, {
        body: { rules: [] },
      }),
    );
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.result).toBeNull();
    const bad = await unchangedBy(z, () =>
      call(f, 'PUT', `${p.entrypoint}?waf_migration=pending&phase_two=1`, {
        body: {
          rules: [
            { id: '', version: '', ref: '', action: 'execute', expression: 'true', action_parameters: {} },
          ],
        },
      }),
    );
    refused(bad, 400, 10400, /invalid JSON: missing required field "id"/);
    expect(bad.body.errors[0]!.source).toEqual({ pointer: '/rules/0/action_parameters/id' });
  });

  it('without waf_migration, on a zone not upgraded, saves the entry point and says it does not run yet', async () => {
    const z = await freshZone(f, 'business');
    const a = await call(f, 'PUT', migrationPaths(z.id).entrypoint, { body: { rules: [] } });
    expect(a.status, a.text).toBe(200);
    expect(a.body.messages).toEqual([
      { code: 10716, message: expect.stringContaining('runs only after the upgrade') },
    ]);
    expect((await status(z)).migration_state).toBe('start');
  });
});

describe('concurrency', () => {
  it('upgrades racing on one zone: exactly one applied, the others refused', async () => {
    const z = await freshZone(f, 'enterprise');
    const body = (await get(`${migrationPaths(z.id).config}?phase_two=1`)).result;
    // Hold the first upgrade's transaction open until the four others wait on the zone lock.
    hold = holdUpgrade(f);
    const racing = Promise.all(
      ['pending', '1', 'pending', 'validation', '1'].map((mode) =>
        upgradeWithConfig(f, z.id, mode, { body }),
      ),
    );
    await hold.held;
    await hold.waiters(4, racing);
    hold.release();
    const answers = await racing;
    const applied = answers.filter((a) => a.status === 200);
    const refusedAnswers = answers.filter((a) => a.status !== 200);
    // A validation request may win the lock first and be followed by one pending: still one upgrade.
    const completes = (await history(z)).filter((e) => e.to === 'complete');
    expect(completes).toHaveLength(1);
    expect(applied.length).toBeGreaterThanOrEqual(1);
    for (const a of refusedAnswers) refused(a, 409, 10704, /already upgraded/);
    const versions = (await call(f, 'GET', `${migrationPaths(z.id).entrypoint}/versions`)).body
      .result as unknown[];
    expect(versions).toHaveLength(applied.length);
    expect((await status(z)).migration_state).toBe('complete');
  });

  it('a URI-based override created during an upgrade waits for it, then is refused', async () => {
    const z = await freshZone(f, 'business');
    hold = holdUpgrade(f);
    const upgrading = upgradeWithConfig(f, z.id, 'pending', { body: { rules: [] } });
    // The upgrade has written everything and holds the zone lock, uncommitted.
    await hold.held;
    const creating = call(f, 'POST', `/zones/${z.id}/firewall/waf/overrides`, {
      body: { urls: ['example.com/late/*'], rules: { '100001': 'disable' } },
    });
    await hold.waiters(1, creating);
    hold.release();
    const override = await creating;
    expect((await upgrading).status).toBe(200);
    refused(override, 400, 10706, /uses the new WAF Managed Rules/);
    expect((await storeSnapshot(f, z.id)).legacy).toEqual([]);
  });

  it('two upgrades racing on one Pro zone: one applied, one refused', async () => {
    const z = await freshZone(f, 'pro');
    hold = holdUpgrade(f);
    const racing = Promise.all([upgradeWithConfig(f, z.id, 'pending'), upgradeWithConfig(f, z.id, '1')]);
    await hold.held;
    await hold.waiters(1, racing);
    hold.release();
    const [a, b] = await racing;
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(await history(z)).toHaveLength(1);
  });
});

describe('the Cloudflare TypeScript SDK runs the API upgrade procedure', () => {
  it('check, config, validation, pending, status: every answer as the OpenAPI document says', async () => {
    const z = await freshZone(f, 'enterprise', 'sdk');
    const exchanges: Exchange[] = [];
    const cf = new Cloudflare({
      baseURL: f.api,
      apiToken: f.token,
      maxRetries: 0,
      fetch: recordingFetch(exchanges),
    });
    type Envelope<T> = { result: T; messages: { code: number }[] };
    const check = await cf.get<Envelope<{ compatible: boolean }>>(`/zones/${z.id}/waf_migration/check`, {
      query: { phase_two: 1 },
    });
    expect(check.result).toEqual({ compatible: true, migration_state: 'start' });
    const config = await cf.get<
      Envelope<{ name: string; rules: Cloudflare.Rulesets.PhaseUpdateParams['rules'] }>
    >(`/zones/${z.id}/waf_migration/config`, { query: { phase_two: 1 } });
    // The SDK's own method, with the query of the upgrade replacing its dry_run query (reference §5.1).
    const validation = await cf.rulesets.phases.update(
      'http_request_firewall_managed',
      { zone_id: z.id, name: config.result.name, rules: config.result.rules },
      { query: { waf_migration: 'validation', phase_two: 1 } },
    );
    expect((validation as { rules: unknown[] }).rules).toHaveLength(config.result.rules!.length);
    await cf.rulesets.phases.update(
      'http_request_firewall_managed',
      { zone_id: z.id, rules: config.result.rules },
      { query: { waf_migration: 'pending', phase_two: 1 } },
    );
    const again = cf.rulesets.phases.update(
      'http_request_firewall_managed',
      { zone_id: z.id, rules: [] },
      { query: { waf_migration: 'pending', phase_two: 1 } },
    );
    await expect(again).rejects.toMatchObject({ status: 409 });
    const status = await cf.get<Envelope<{ migration_state: string }>>(`/zones/${z.id}/waf_migration/status`);
    expect(status.result.migration_state).toBe('complete');
    await cf.get(`/zones/${z.id}/waf_migration/history`);
    await expect(cf.firewall.waf.packages.list({ zone_id: z.id })).rejects.toMatchObject({ status: 400 });
    const doc = await (await fetch(`${f.baseUrl}/openapi/edge.json`)).json();
    const checker = new OpenApiChecker(doc as ConstructorParameters<typeof OpenApiChecker>[0]);
    expect(exchanges.length).toBeGreaterThanOrEqual(8);
    expect(exchanges.flatMap((x) => checker.check(x))).toEqual([]);
  });
});
