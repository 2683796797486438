import Cloudflare from 'cloudflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANOMALY_RULE_ID, EDGE_MANAGED_RULESET_ID, OWASP_RULESET_ID } from '../src/index.ts';
import { type EdgeFixture, startEdge } from './helpers.ts';
import { type Exchange, OpenApiChecker, recordingFetch } from './openapi-check.ts';

// The official Cloudflare TypeScript SDK, pointed at Cairn, manages everything of issue 7 and reads it
// back. Every exchange is then checked against the OpenAPI document Cairn serves.
let f: EdgeFixture;
let cf: Cloudflare;
const exchanges: Exchange[] = [];
let zone_id: string;

interface Rule {
  id: string;
  version: string;
  action: string;
  enabled: boolean;
}
interface Ruleset {
  id: string;
  version: string;
  rules: Rule[];
}
/** The SDK's ruleset method types do not resolve under our compiler settings; this is their shape. */
const asRuleset = (value: unknown) => value as Ruleset;

/** Some SDK methods (the overrides) return the whole envelope instead of `result`. */
function resultOf<T>(value: unknown): T {
  const envelope = value as { success?: unknown; result?: unknown };
  expect(envelope.success).toBe(true);
  return envelope.result as T;
}

beforeAll(async () => {
  f = await startEdge();
  zone_id = f.zones.enterprise.id;
  cf = new Cloudflare({ baseURL: f.api, apiToken: f.token, maxRetries: 0, fetch: recordingFetch(exchanges) });
});
afterAll(async () => {
  await f.close();
});

describe('the Cloudflare TypeScript SDK against Cairn', () => {
  it('manages zones', async () => {
    const made = await cf.zones.create({
      account: { id: f.accountId },
      name: 'sdk.example.org',
      type: 'full',
    });
    expect(made.name).toBe('sdk.example.org');
    expect(made.plan.legacy_id).toBe('free');
    const listed = [];
    for await (const z of cf.zones.list({ per_page: 5 })) listed.push(z.name);
    expect(listed).toEqual(
      expect.arrayContaining(['sdk.example.org', 'pro.example.com', 'enterprise.example.com']),
    );
    expect(listed).toHaveLength(5);
    const paused = await cf.zones.edit({ zone_id: made.id, paused: true });
    expect(paused.paused).toBe(true);
    expect((await cf.zones.get({ zone_id: made.id })).paused).toBe(true);
    expect(await cf.zones.delete({ zone_id: made.id })).toEqual({ id: made.id });
    await expect(cf.zones.get({ zone_id: made.id })).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
  });

  it('manages the waf zone setting', async () => {
    expect(((await cf.zones.settings.get('waf', { zone_id })) as { value: string }).value).toBe('off');
    const on = await cf.zones.settings.edit('waf', {
      zone_id,
      value: 'on',
    } as Cloudflare.Zones.SettingEditParams);
    expect(on).toMatchObject({ id: 'waf', value: 'on', editable: true });
    expect(((await cf.zones.settings.get('waf', { zone_id })) as { value: string }).value).toBe('on');
  });

  it('manages WAF packages, groups and rules', async () => {
    const packages = [];
    for await (const p of cf.firewall.waf.packages.list({ zone_id }))
      packages.push(p as { id: string; name: string });
    expect(packages.map((p) => p.name)).toEqual(['CloudFlare', 'OWASP ModSecurity Core Rule Set']);
    const owasp = packages[1]! as { id: string };
    const managed = packages[0]! as { id: string };
    await cf.patch(`/zones/${zone_id}/firewall/waf/packages/${owasp.id}`, {
      body: { sensitivity: 'low', action_mode: 'simulate' },
    });
    expect(await cf.firewall.waf.packages.get(owasp.id, { zone_id })).toMatchObject({
      sensitivity: 'low',
      action_mode: 'simulate',
    });

    const groups = [];
    for await (const g of cf.firewall.waf.packages.groups.list(owasp.id, { zone_id, per_page: 5 }))
      groups.push(g);
    expect(groups.length).toBeGreaterThan(5);
    const sqli = groups.find((g) => g.name.includes('Sqli') || g.name.includes('SQLI'))!;
    await cf.firewall.waf.packages.groups.edit(sqli.id, { zone_id, package_id: owasp.id, mode: 'off' });
    expect(
      await cf.firewall.waf.packages.groups.get(sqli.id, { zone_id, package_id: owasp.id }),
    ).toMatchObject({
      mode: 'off',
    });

    const rules = [];
    for await (const r of cf.firewall.waf.packages.rules.list(managed.id, { zone_id, per_page: 100 }))
      rules.push(r);
    const struts = rules.find((r) => r.description.includes('CVE:CVE-2013-2248'))!;
    expect(struts).toMatchObject({
      mode: 'default',
      allowed_modes: ['default', 'disable', 'simulate', 'block', 'challenge'],
    });
    await cf.firewall.waf.packages.rules.edit(struts.id, {
      zone_id,
      package_id: managed.id,
      mode: 'simulate',
    });
    expect(
      await cf.firewall.waf.packages.rules.get(struts.id, { zone_id, package_id: managed.id }),
    ).toMatchObject({
      mode: 'simulate',
    });
    const owaspRules = [];
    for await (const r of cf.firewall.waf.packages.rules.list(owasp.id, {
      zone_id,
      group_id: sqli.id,
      per_page: 100,
    })) {
      owaspRules.push(r);
    }
    expect(owaspRules.every((r) => r.group.id === sqli.id && /^942\d{3}$/.test(r.id))).toBe(true);
  });

  it('manages URI-based WAF overrides', async () => {
    type Override = { id: string; urls: string[]; rules: Record<string, string>; paused: boolean };
    const made = resultOf<Override>(
      await cf.firewall.waf.overrides.create({
        zone_id,
        urls: ['shop.enterprise.example.com/admin/*'],
        rules: { '100031': 'disable' },
        rewrite_action: { block: 'challenge' },
      } as Cloudflare.Firewall.WAF.OverrideCreateParams),
    );
    expect(made).toMatchObject({
      urls: ['shop.enterprise.example.com/admin/*'],
      rules: { '100031': 'disable' },
      paused: false,
    });
    const updated = resultOf<Override>(
      await cf.firewall.waf.overrides.update(made.id, {
        zone_id,
        id: made.id,
        urls: ['shop.enterprise.example.com/*'],
        rules: { '100031': 'block' },
        rewrite_action: { block: 'simulate' },
      }),
    );
    expect(updated.rules).toEqual({ '100031': 'block' });
    const listed = resultOf<Override[]>(await cf.firewall.waf.overrides.list({ zone_id }));
    expect(listed.map((o) => o.id)).toEqual([made.id]);
    expect(resultOf<Override>(await cf.firewall.waf.overrides.get(made.id, { zone_id })).urls).toEqual([
      'shop.enterprise.example.com/*',
    ]);
    expect(resultOf(await cf.firewall.waf.overrides.delete(made.id, { zone_id }))).toEqual({ id: made.id });
    await expect(cf.firewall.waf.overrides.get(made.id, { zone_id })).rejects.toBeInstanceOf(
      Cloudflare.NotFoundError,
    );
  });

  it('manages filters and firewall rules (bypass WAF included)', async () => {
    const filters = [];
    for await (const x of cf.filters.create({
      zone_id,
      body: [{ expression: 'ip.src in {192.0.2.0/24}', description: 'office' }],
    })) {
      filters.push(x);
    }
    expect(filters).toHaveLength(1);
    const filter = filters[0]!;
    const bypass = [];
    // The SDK types `action` as a rate-limit object (reference §2.4); the API takes the action name.
    for await (const r of cf.firewall.rules.create({
      zone_id,
      action: 'bypass',
      products: ['waf'],
      priority: 10,
      filter: { id: filter.id },
      description: 'office skips the WAF',
    } as unknown as Cloudflare.Firewall.RuleCreateParams)) {
      bypass.push(r);
    }
    expect(bypass[0]).toMatchObject({
      action: 'bypass',
      products: ['waf'],
      priority: 10,
      filter: { id: filter.id },
    });
    const ruleId = bypass[0]!.id!;
    const blocked = await cf.post(`/zones/${zone_id}/firewall/rules`, {
      body: [
        {
          action: 'block',
          filter: { expression: 'http.request.uri.path contains "/wp-login.php"' },
          priority: 5,
        },
      ],
    });
    expect(blocked).toMatchObject({ success: true });
    const listed = [];
    for await (const r of cf.firewall.rules.list({ zone_id })) listed.push(r.priority);
    expect(listed).toEqual([5, 10]);
    const updated = await cf.firewall.rules.update(ruleId, {
      zone_id,
      action: 'bypass',
      products: ['waf', 'securityLevel'],
      filter: { id: filter.id },
    } as unknown as Cloudflare.Firewall.RuleUpdateParams);
    expect(updated.products).toEqual(['waf', 'securityLevel']);
    for await (const r of cf.firewall.rules.edit(ruleId, {
      zone_id,
      paused: true,
    } as Cloudflare.Firewall.RuleEditParams)) {
      expect(r.paused).toBe(true);
    }
    expect((await cf.firewall.rules.get(ruleId, { zone_id })).paused).toBe(true);
    const changed = await cf.filters.update(filter.id!, {
      zone_id,
      expression: 'ip.src in {198.51.100.0/24}',
    } as Cloudflare.Filters.FilterUpdateParams);
    expect(changed.expression).toBe('ip.src in {198.51.100.0/24}');
    expect((await cf.filters.get(filter.id!, { zone_id })).description).toBe('office');
    await expect(cf.filters.delete(filter.id!, { zone_id })).rejects.toBeInstanceOf(
      Cloudflare.BadRequestError,
    );
    expect(await cf.firewall.rules.delete(ruleId, { zone_id })).toMatchObject({ id: ruleId });
    expect(await cf.filters.delete(filter.id!, { zone_id })).toMatchObject({ id: filter.id });
    const left = [];
    for await (const x of cf.filters.list({ zone_id })) left.push(x.expression);
    expect(left).toEqual(['http.request.uri.path contains "/wp-login.php"']);
  });

  it('manages page rules', async () => {
    const made = await cf.pageRules.create({
      zone_id,
      targets: [
        { target: 'url', constraint: { operator: 'matches', value: '*enterprise.example.com/legacy/*' } },
      ],
      actions: [{ id: 'disable_security' }],
      priority: 1,
      status: 'active',
    } as Cloudflare.PageRules.PageRuleCreateParams);
    expect(made).toMatchObject({ status: 'active', actions: [{ id: 'disable_security' }] });
    const waf = await cf.pageRules.update(made.id, {
      zone_id,
      targets: made.targets,
      actions: [{ id: 'waf', value: 'off' }],
      status: 'active',
    } as unknown as Cloudflare.PageRules.PageRuleUpdateParams);
    expect(waf.actions).toEqual([{ id: 'waf', value: 'off' }]);
    const second = await cf.pageRules.create({
      zone_id,
      targets: [
        { target: 'url', constraint: { operator: 'matches', value: '*enterprise.example.com/api/*' } },
      ],
      actions: [{ id: 'security_level', value: 'high' }],
      priority: 2,
    } as Cloudflare.PageRules.PageRuleCreateParams);
    expect(second.status).toBe('disabled');
    await cf.pageRules.edit(second.id, {
      zone_id,
      status: 'active',
    } as Cloudflare.PageRules.PageRuleEditParams);
    const listed = await cf.pageRules.list({ zone_id });
    expect(listed.map((r) => [r.priority, r.status])).toEqual([
      [2, 'active'],
      [1, 'active'],
    ]);
    expect((await cf.pageRules.get(second.id, { zone_id })).actions).toEqual([
      { id: 'security_level', value: 'high' },
    ]);
    expect(await cf.pageRules.delete(second.id, { zone_id })).toEqual({ id: second.id });
  });

  it('manages rulesets, single rules, versions and entry points', async () => {
    const listed = [];
    for await (const r of cf.rulesets.list({ zone_id })) listed.push(r.id);
    expect(listed).toEqual([EDGE_MANAGED_RULESET_ID, OWASP_RULESET_ID]);

    const custom = asRuleset(
      await cf.rulesets.create({
        zone_id,
        kind: 'zone',
        name: 'Custom rules',
        phase: 'http_request_firewall_custom',
        rules: [
          { action: 'block', expression: 'http.request.uri.path eq "/admin"', description: 'no admin' },
        ],
      }),
    );
    expect(custom.version).toBe('1');
    const first = custom.rules[0]!;
    const added = asRuleset(
      await cf.rulesets.rules.create(custom.id, {
        zone_id,
        action: 'managed_challenge',
        expression: 'ip.src.country eq "T1"',
        position: { before: first.id! },
      } as Cloudflare.Rulesets.RuleCreateParams),
    );
    expect(added.rules.map((r) => r.action)).toEqual(['managed_challenge', 'block']);
    const edited = asRuleset(
      await cf.rulesets.rules.edit(first.id!, {
        zone_id,
        ruleset_id: custom.id,
        enabled: false,
      } as Cloudflare.Rulesets.RuleEditParams),
    );
    expect(edited.rules[1]).toMatchObject({ id: first.id, enabled: false, version: '2' });
    const removed = asRuleset(
      await cf.rulesets.rules.delete(added.rules[0]!.id!, { zone_id, ruleset_id: custom.id }),
    );
    expect(removed.rules.map((r) => r.id)).toEqual([first.id]);
    expect(removed.version).toBe('4');

    const replaced = asRuleset(
      await cf.rulesets.update(custom.id, {
        zone_id,
        rules: [
          {
            id: first.id,
            action: 'block',
            expression: 'http.request.uri.path eq "/admin"',
            description: 'no admin',
            enabled: false,
          },
          { action: 'js_challenge', expression: 'http.user_agent contains "curl"' },
        ],
      } as Cloudflare.Rulesets.RulesetUpdateParams),
    );
    expect(replaced.rules.map((r) => [r.id === first.id, r.version])).toEqual([
      [true, '2'],
      [false, '1'],
    ]);
    expect(asRuleset(await cf.rulesets.get(custom.id, { zone_id })).version).toBe('5');

    const versions = [];
    for await (const v of cf.rulesets.versions.list(custom.id, { zone_id })) versions.push(v.version);
    expect(versions).toEqual(['1', '2', '3', '4', '5']);
    expect(
      asRuleset(await cf.rulesets.versions.get('1', { zone_id, ruleset_id: custom.id })).rules,
    ).toHaveLength(1);
    await cf.rulesets.versions.delete('2', { zone_id, ruleset_id: custom.id });
    await expect(cf.rulesets.versions.get('2', { zone_id, ruleset_id: custom.id })).rejects.toBeInstanceOf(
      Cloudflare.NotFoundError,
    );

    // The custom ruleset is the phase's entry point; the managed phase has none yet (404/10003).
    expect(asRuleset(await cf.rulesets.phases.get('http_request_firewall_custom', { zone_id })).id).toBe(
      custom.id,
    );
    await expect(cf.rulesets.phases.get('http_request_firewall_managed', { zone_id })).rejects.toMatchObject({
      status: 404,
      errors: [
        {
          code: 10003,
          message: 'could not find entrypoint ruleset in the http_request_firewall_managed phase',
        },
      ],
    });
    const managed = asRuleset(
      await cf.rulesets.phases.update('http_request_firewall_managed', {
        zone_id,
        rules: [
          {
            action: 'execute',
            expression: 'true',
            action_parameters: {
              id: OWASP_RULESET_ID,
              overrides: {
                categories: [
                  { category: 'paranoia-level-3', enabled: false },
                  { category: 'paranoia-level-4', enabled: false },
                ],
                rules: [{ id: ANOMALY_RULE_ID, score_threshold: 60, action: 'managed_challenge' }],
              },
            },
          },
          {
            action: 'execute',
            expression: 'true',
            action_parameters: { id: EDGE_MANAGED_RULESET_ID, version: 'latest' },
          },
        ],
      } as Cloudflare.Rulesets.PhaseUpdateParams),
    );
    expect(managed.rules).toHaveLength(2);
    const skip = asRuleset(
      await cf.rulesets.rules.create(managed.id, {
        zone_id,
        action: 'skip',
        expression: 'ip.src in {192.0.2.0/24}',
        action_parameters: { rulesets: [OWASP_RULESET_ID] },
        logging: { enabled: true },
        position: { index: 1 },
      } as Cloudflare.Rulesets.RuleCreateParams),
    );
    expect(skip.rules.map((r) => r.action)).toEqual(['skip', 'execute', 'execute']);
    const phaseVersions = [];
    for await (const v of cf.rulesets.phases.versions.list('http_request_firewall_managed', { zone_id })) {
      phaseVersions.push(v.version);
    }
    expect(phaseVersions).toEqual(['1', '2']);
    const v1 = await cf.rulesets.phases.versions.get('1', {
      zone_id,
      ruleset_phase: 'http_request_firewall_managed',
    });
    expect(v1.rules).toHaveLength(2);

    const owasp = await cf.rulesets.get(OWASP_RULESET_ID, { zone_id });
    const anomaly = owasp.rules.find((r) => r.id === ANOMALY_RULE_ID) as {
      description?: string;
      score_threshold?: number;
    };
    expect(anomaly).toMatchObject({
      description: '949110: Inbound Anomaly Score Exceeded',
      score_threshold: 40,
    });

    await cf.rulesets.delete(custom.id, { zone_id });
    await expect(cf.rulesets.get(custom.id, { zone_id })).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
  });

  it('answers only what the served OpenAPI document describes', async () => {
    const doc = await (await fetch(`${f.baseUrl}/openapi/edge.json`)).json();
    const checker = new OpenApiChecker(doc as ConstructorParameters<typeof OpenApiChecker>[0]);
    expect(exchanges.length).toBeGreaterThan(60);
    const problems = exchanges.flatMap((x) => checker.check(x));
    expect(problems).toEqual([]);
  });
});
