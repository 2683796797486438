import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targetExpression } from '../src/api/migration/mapping/page-rule-pattern.ts';
import { MANAGED_PACKAGE_ID, packageRules } from '../src/api/waf-legacy/catalogue.ts';
import {
  ANOMALY_RULE_ID,
  activeWafs,
  EDGE_MANAGED_RULESET_ID,
  findZone,
  MAPPING_ROWS,
  OWASP_PACKAGE_ID,
  OWASP_RULESET_ID,
  type PlanName,
} from '../src/index.ts';
import { call, type EdgeFixture, startEdge } from './helpers.ts';
import { freshZone, migrationPaths, upgradeWithConfig } from './migration-helpers.ts';

let f: EdgeFixture;
beforeAll(async () => {
  f = await startEdge();
});
afterAll(async () => {
  await f.close();
});

const STRUTS = '23ee7cebe6e8443e99ecf932ab579455';

/** The new rule id of a legacy rule of the CloudFlare package. */
function newId(legacyId: string): string {
  const r = packageRules(f.edge.deps.catalogue, MANAGED_PACKAGE_ID).find((x) => x.id === legacyId);
  if (!r) throw new Error(`no legacy rule ${legacyId}`);
  return r.newRuleId;
}

const edgeExecute = (overrides?: unknown, expression = 'true', enabled = true, description = '') => ({
  id: '',
  version: '',
  action: 'execute',
  expression,
  description,
  ref: '',
  enabled,
  action_parameters: { id: EDGE_MANAGED_RULESET_ID, ...(overrides ? { overrides } : {}) },
});

const owaspExecute = (
  pl: 1 | 2,
  threshold: number,
  action: string,
  expression = 'true',
  enabled = true,
  description = '',
) => ({
  id: '',
  version: '',
  action: 'execute',
  expression,
  description,
  ref: '',
  enabled,
  action_parameters: {
    id: OWASP_RULESET_ID,
    overrides: {
      categories: (pl === 1 ? [2, 3, 4] : [3, 4]).map((n) => ({
        category: `paranoia-level-${n}`,
        enabled: false,
      })),
      rules: [{ id: ANOMALY_RULE_ID, action, score_threshold: threshold }],
    },
  },
});

const skip = (expression: string, description: string, enabled = true) => ({
  id: '',
  version: '',
  action: 'skip',
  expression,
  description,
  ref: '',
  enabled,
  action_parameters: { ruleset: 'current' },
  logging: { enabled: true },
});

async function zoneWith(plan: PlanName, waf: 'on' | 'off') {
  const zone = await freshZone(f, plan, 'map');
  if (waf === 'on') {
    const a = await call(f, 'PATCH', `/zones/${zone.id}/settings/waf`, { body: { value: 'on' } });
    expect(a.status, a.text).toBe(200);
  }
  return zone;
}

async function config(zoneId: string) {
  const a = await call(f, 'GET', `${migrationPaths(zoneId).config}?phase_two=1`);
  expect(a.status, a.text).toBe(200);
  return a.body as {
    result: { name: string; rules: unknown[] };
    messages: { code: number; message: string }[];
  };
}

async function ok(method: string, path: string, body: unknown) {
  const a = await call(f, method, path, { body });
  expect(a.status, a.text).toBe(200);
  return a.body.result as { id: string };
}

const pageRule = (
  value: string,
  actions: unknown[],
  priority: number,
  status = 'active',
  operator = 'matches',
) => ({
  targets: [{ target: 'url', constraint: { operator, value } }],
  actions,
  priority,
  status,
});

describe('the mapping table, one function per row', () => {
  it('registers one named function per row, each once', () => {
    const names = MAPPING_ROWS.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual([
      'firewallRulesWithBypassWafManagedRules',
      'pageRulesWithDisableSecurity',
      'pageRulesWithWafOff',
      'zoneWafSetting',
      'pageRulesWithWafOn',
      'managedPackageGroupModes',
      'managedPackageRuleModes',
      'owaspSensitivityHigh',
      'owaspSensitivityMedium',
      'owaspSensitivityLow',
      'owaspSensitivityDefault',
      'owaspSensitivityOff',
      'owaspAction',
      'owaspGroupOverrides',
      'owaspRuleOverrides',
    ]);
  });

  it('zone waf setting off (the default): the managed rulesets deployed disabled, OWASP by "Default"', async () => {
    const zone = await zoneWith('pro', 'off');
    const c = await config(zone.id);
    expect(c.result).toEqual({
      name: 'default',
      rules: [edgeExecute(undefined, 'true', false), owaspExecute(2, 40, 'challenge', 'true', false)],
    });
    expect(c.messages.map((m) => m.code)).toEqual([10711]);
  });

  it('zone waf setting on: the managed rulesets run for all traffic', async () => {
    const zone = await zoneWith('business', 'on');
    expect((await config(zone.id)).result.rules).toEqual([edgeExecute(), owaspExecute(2, 40, 'challenge')]);
  });

  it('firewall rules with Bypass > WAF Managed Rules → skip rules by priority; paused → disabled', async () => {
    const zone = await zoneWith('enterprise', 'on');
    const made = (await ok('POST', `/zones/${zone.id}/firewall/rules`, [
      {
        filter: { expression: 'ip.src eq 192.0.2.3' },
        action: 'bypass',
        products: ['waf'],
        description: 'none',
      },
      {
        filter: { expression: 'ip.src eq 192.0.2.2' },
        action: 'bypass',
        products: ['waf', 'uaBlock'],
        priority: 20,
        description: 'second',
      },
      {
        filter: { expression: 'http.host eq "a.example"' },
        action: 'bypass',
        products: ['zoneLockdown'],
        priority: 1,
      },
      {
        filter: { expression: 'ip.src eq 192.0.2.1' },
        action: 'bypass',
        products: ['waf'],
        priority: 10,
        description: 'first',
        paused: true,
      },
      { filter: { expression: 'ip.src eq 192.0.2.9' }, action: 'block', priority: 5 },
    ])) as unknown as { id: string }[];
    const [none, second, , first] = made.map((r) => r.id);
    const c = await config(zone.id);
    expect(c.result.rules).toEqual([
      skip(
        'ip.src eq 192.0.2.1',
        `Migrated from firewall rule ${first} (Bypass > WAF Managed Rules): first`,
        false,
      ),
      skip(
        'ip.src eq 192.0.2.2',
        `Migrated from firewall rule ${second} (Bypass > WAF Managed Rules): second`,
      ),
      skip('ip.src eq 192.0.2.3', `Migrated from firewall rule ${none} (Bypass > WAF Managed Rules): none`),
      edgeExecute(),
      owaspExecute(2, 40, 'challenge'),
    ]);
  });

  it('page rules with Disable Security and WAF Off → skip rules by priority; a higher page rule wins its URLs', async () => {
    const zone = await zoneWith('business', 'on');
    const base = `/zones/${zone.id}/pagerules`;
    const off = await ok('POST', base, pageRule('example.com/admin/*', [{ id: 'waf', value: 'off' }], 2));
    const ds = await ok('POST', base, pageRule('*example.com/login', [{ id: 'disable_security' }], 3));
    const level = await ok(
      'POST',
      base,
      pageRule('http://example.com/admin/keep*', [{ id: 'security_level', value: 'high' }], 5),
    );
    const disabled = await ok(
      'POST',
      base,
      pageRule('example.com', [{ id: 'waf', value: 'off' }], 1, 'disabled'),
    );
    const c = await config(zone.id);
    expect(c.result.rules).toEqual([
      skip(
        'http.request.full_uri wildcard "*://*example.com/login" and not http.request.full_uri wildcard "http://example.com/admin/keep*"',
        `Migrated from page rule ${ds.id} (Disable Security)`,
      ),
      skip(
        'http.request.full_uri wildcard "*://example.com/admin/*" and not (http.request.full_uri wildcard "http://example.com/admin/keep*" or http.request.full_uri wildcard "*://*example.com/login")',
        `Migrated from page rule ${off.id} (Web Application Firewall: Off)`,
      ),
      skip(
        'http.request.full_uri wildcard "*://example.com/" and not (http.request.full_uri wildcard "http://example.com/admin/keep*" or http.request.full_uri wildcard "*://*example.com/login" or http.request.full_uri wildcard "*://example.com/admin/*")',
        `Migrated from page rule ${disabled.id} (Web Application Firewall: Off)`,
        false,
      ),
      edgeExecute(),
      owaspExecute(2, 40, 'challenge'),
    ]);
    expect(level.id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('page rules with WAF On and the zone setting off → conditional execute rules; setting on → not converted', async () => {
    const zone = await zoneWith('pro', 'off');
    const base = `/zones/${zone.id}/pagerules`;
    const on = await ok('POST', base, pageRule('shop.example.com/*', [{ id: 'waf', value: 'on' }], 1));
    const where = 'http.request.full_uri wildcard "*://shop.example.com/*"';
    const description = `Migrated from page rule ${on.id} (Web Application Firewall: On)`;
    expect((await config(zone.id)).result.rules).toEqual([
      edgeExecute(undefined, where, true, description),
      owaspExecute(2, 40, 'challenge', where, true, description),
    ]);
    await ok('PATCH', `/zones/${zone.id}/settings/waf`, { value: 'on' });
    const c = await config(zone.id);
    expect(c.result.rules).toEqual([edgeExecute(), owaspExecute(2, 40, 'challenge')]);
    expect(c.messages).toEqual([
      {
        code: 10712,
        message: `page rule ${on.id} (Web Application Firewall: On) is not converted: the zone's waf setting is already on, so the managed rulesets run everywhere`,
      },
    ]);
  });

  it('CloudFlare package group and rule modes → overrides of the edge managed ruleset', async () => {
    const zone = await zoneWith('business', 'on');
    const pkg = `/zones/${zone.id}/firewall/waf/packages/${MANAGED_PACKAGE_ID}`;
    const groups = (await call(f, 'GET', `${pkg}/groups?per_page=100`)).body.result as {
      id: string;
      name: string;
    }[];
    const wordpress = groups.find((g) => g.name === 'Cloudflare WordPress')!;
    await ok('PATCH', `${pkg}/groups/${wordpress.id}`, { mode: 'off' });
    await ok('PATCH', `${pkg}/rules/100031`, { mode: 'simulate' });
    await ok('PATCH', `${pkg}/rules/100001`, { mode: 'disable' });
    await ok('PATCH', `${pkg}/rules/100002`, { mode: 'challenge' });
    await ok('PATCH', `${pkg}/rules/100003`, { mode: 'block' });
    await ok('PATCH', `${pkg}/rules/100091`, { mode: 'block' });
    await ok('PATCH', `${pkg}/rules/100120`, { mode: 'disable' });
    await ok('PATCH', `${pkg}/rules/100050`, { mode: 'simulate' });
    const rules = f.edge.deps.catalogue.edge.rules();
    const expected = [
      { id: newId('100001'), enabled: false },
      { id: newId('100002'), action: 'challenge' },
      { id: STRUTS, action: 'log' },
      { id: newId('100050'), enabled: false },
      { id: newId('100051'), enabled: false },
      { id: newId('100091'), enabled: true },
      { id: newId('100120'), enabled: false },
    ].sort((a, b) => rules.findIndex((r) => r.id === a.id) - rules.findIndex((r) => r.id === b.id));
    expect(newId('100031')).toBe(STRUTS);
    expect((await config(zone.id)).result.rules).toEqual([
      edgeExecute({ rules: expected }),
      owaspExecute(2, 40, 'challenge'),
    ]);
  });

  const sensitivities: [string, 1 | 2, number][] = [
    ['high', 2, 40],
    ['medium', 1, 25],
    ['low', 1, 40],
  ];
  it.each(sensitivities)(
    'OWASP sensitivity %s → PL%d and score threshold %d',
    async (sensitivity, pl, threshold) => {
      const zone = await zoneWith('pro', 'on');
      await ok('PATCH', `/zones/${zone.id}/firewall/waf/packages/${OWASP_PACKAGE_ID}`, { sensitivity });
      expect((await config(zone.id)).result.rules).toEqual([
        edgeExecute(),
        owaspExecute(pl, threshold, 'challenge'),
      ]);
    },
  );

  it('OWASP sensitivity Off → the OWASP Core Ruleset is not deployed', async () => {
    const zone = await zoneWith('pro', 'on');
    await ok('PATCH', `/zones/${zone.id}/firewall/waf/packages/${OWASP_PACKAGE_ID}`, { sensitivity: 'off' });
    expect((await config(zone.id)).result.rules).toEqual([edgeExecute()]);
  });

  it.each([
    ['simulate', 'log'],
    ['block', 'block'],
    ['challenge', 'challenge'],
  ])('OWASP action %s → %s (Simulate becomes Log)', async (actionMode, action) => {
    const zone = await zoneWith('enterprise', 'on');
    await ok('PATCH', `/zones/${zone.id}/firewall/waf/packages/${OWASP_PACKAGE_ID}`, {
      action_mode: actionMode,
    });
    expect((await config(zone.id)).result.rules).toEqual([edgeExecute(), owaspExecute(2, 40, action)]);
  });

  it('OWASP group and rule overrides are not migrated and are listed in messages', async () => {
    const zone = await zoneWith('business', 'on');
    const pkg = `/zones/${zone.id}/firewall/waf/packages/${OWASP_PACKAGE_ID}`;
    const groups = (await call(f, 'GET', `${pkg}/groups?per_page=100`)).body.result as { id: string }[];
    const rules = (await call(f, 'GET', `${pkg}/rules?per_page=5`)).body.result as { id: string }[];
    await ok('PATCH', `${pkg}/groups/${groups[0]!.id}`, { mode: 'off' });
    await ok('PATCH', `${pkg}/rules/${rules[1]!.id}`, { mode: 'off' });
    const c = await config(zone.id);
    expect(c.result.rules).toEqual([edgeExecute(), owaspExecute(2, 40, 'challenge')]);
    expect(c.messages).toEqual([
      {
        code: 10710,
        message: `not migrated: the OWASP group override of group ${groups[0]!.id} (mode off); recreate it in the OWASP Core Ruleset with a category or rule override`,
      },
      {
        code: 10710,
        message: `not migrated: the OWASP rule override of rule ${rules[1]!.id} (mode off); recreate it in the OWASP Core Ruleset with a rule override`,
      },
    ]);
  });

  it('a Free zone never had the previous WAF: nothing to convert', async () => {
    const zone = await freshZone(f, 'free', 'map');
    const c = await config(zone.id);
    expect(c.result).toEqual({ name: 'default', rules: [] });
    expect(c.messages.map((m) => m.code)).toEqual([10714]);
  });

  it('the produced configuration PUT back as is becomes the entry point, rule for rule', async () => {
    const zone = await zoneWith('enterprise', 'on');
    await ok('POST', `/zones/${zone.id}/firewall/rules`, [
      {
        filter: { expression: 'ip.src in {198.51.100.0/24}' },
        action: 'bypass',
        products: ['waf'],
        priority: 1,
      },
    ]);
    await ok(
      'POST',
      `/zones/${zone.id}/pagerules`,
      pageRule('example.com/api/*', [{ id: 'disable_security' }], 1),
    );
    await ok('PATCH', `/zones/${zone.id}/firewall/waf/packages/${MANAGED_PACKAGE_ID}/rules/100031`, {
      mode: 'simulate',
    });
    await ok('PATCH', `/zones/${zone.id}/firewall/waf/packages/${OWASP_PACKAGE_ID}`, {
      sensitivity: 'medium',
      action_mode: 'simulate',
    });
    const produced = (await config(zone.id)).result.rules as Record<string, unknown>[];
    const a = await upgradeWithConfig(f, zone.id, 'pending');
    expect(a.status, a.text).toBe(200);
    const entry = (await call(f, 'GET', migrationPaths(zone.id).entrypoint)).body.result as {
      rules: Record<string, unknown>[];
    };
    expect(entry.rules).toHaveLength(produced.length);
    entry.rules.forEach((r, i) => {
      const { id, version, ref, last_updated, ...content } = r;
      const { id: _i, version: _v, ref: _r, ...want } = produced[i]!;
      expect(content).toEqual(want);
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect(ref).toBe(id);
      expect(version).toBe('1');
      expect(last_updated).toEqual(expect.any(String));
    });
  });
});

describe('page-rule URL patterns in the Rules language', () => {
  const t = (operator: string, value: string) =>
    targetExpression({ target: 'url', constraint: { operator, value } });
  it.each([
    ['matches', 'example.com/*', 'http.request.full_uri wildcard "*://example.com/*"'],
    ['matches', 'example.com', 'http.request.full_uri wildcard "*://example.com/"'],
    ['matches', '*.example.com*', 'http.request.full_uri wildcard "*://*.example.com*"'],
    ['matches', 'https://example.com/a**b', 'http.request.full_uri wildcard "https://example.com/a*b"'],
    [
      'matches',
      'example.com/say"hi"\\',
      'http.request.full_uri wildcard "*://example.com/say\\"hi\\"\\\\\\\\"',
    ],
    ['equals', 'https://example.com/a*b', 'http.request.full_uri wildcard "https://example.com/a\\\\*b"'],
    ['not_equal', 'example.com/x', 'not http.request.full_uri wildcard "*://example.com/x"'],
    ['contains', 'admin*', 'http.request.full_uri wildcard "*admin\\\\**"'],
    ['not_contain', '/api/', 'not http.request.full_uri wildcard "*/api/*"'],
  ])('%s %s', (operator, value, expression) => {
    expect(t(operator, value)).toBe(expression);
  });
});

describe('activeWafs: what the data plane runs, in which order', () => {
  it('follows the state: previous only, both (new first), new only; Free zones the new one', async () => {
    const ent = await zoneWith('enterprise', 'on');
    const run = async (id: string) => {
      const zone = await findZone(f.deps.db, id);
      const w = await activeWafs(f.deps.db, f.edge.deps.catalogue, zone!);
      return {
        order: w.order,
        legacy: w.legacy.enabled,
        managed: w.managed.enabled,
        rules: w.managed.entrypoint?.rules.length ?? null,
        wafOn: w.legacy.config.wafOn,
      };
    };
    expect(await run(ent.id)).toEqual({
      order: ['legacy'],
      legacy: true,
      managed: false,
      rules: null,
      wafOn: true,
    });
    expect((await upgradeWithConfig(f, ent.id, 'validation')).status).toBe(200);
    expect(await run(ent.id)).toEqual({
      order: ['managed', 'legacy'],
      legacy: true,
      managed: true,
      rules: 2,
      wafOn: true,
    });
    expect((await upgradeWithConfig(f, ent.id, 'pending')).status).toBe(200);
    expect(await run(ent.id)).toEqual({
      order: ['managed'],
      legacy: false,
      managed: true,
      rules: 2,
      wafOn: true,
    });
    const free = await freshZone(f, 'free', 'map');
    expect(await run(free.id)).toEqual({
      order: ['managed'],
      legacy: false,
      managed: true,
      rules: null,
      wafOn: false,
    });
  });
});
