import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Zone } from '../src/index.ts';
import { ATTACK_RULES, attackRuleId } from '../src/managed/attack-rules.ts';
import { ATTACK_FAMILIES, BENIGN, type CorpusRequest, placed } from './managed-attacks-corpus.ts';
import { deployEdgeRuleset, EDGE_RULESET, type ProxyFixture, startProxyFixture } from './proxy-fixture.ts';

// Issue 40, point 5: the Cloudflare Managed Ruleset alone, at its defaults (no OWASP ruleset), blocks each
// attack family in every part of a request its rules read, and passes ordinary traffic.

const ruleId = (slug: string) => attackRuleId(ATTACK_RULES.find((r) => r.slug === slug)!);

describe('the Managed Ruleset alone, through the proxy', () => {
  let f: ProxyFixture;
  let zone: Zone;
  const send = (r: CorpusRequest, host = zone.name) =>
    f.send(host, r.path, {
      method: r.method,
      headers: r.headers,
      ...(r.body === undefined ? {} : { body: r.body }),
    });

  beforeAll(async () => {
    f = await startProxyFixture();
    zone = await f.zone('managed-attacks.example.com', 'pro', 'complete');
    await deployEdgeRuleset(f, zone.id);
  }, 180_000);
  afterAll(() => f?.close());

  const cases = Object.entries(ATTACK_FAMILIES).flatMap(([family, { payloads, parts }]) =>
    parts.map((part) => [family, part, payloads] as const),
  );

  it.each(cases)('%s is blocked in the %s', async (_family, part, payloads) => {
    const statuses = await Promise.all(payloads.map((p) => send(placed(part, p)).then((r) => r.status)));
    expect(statuses.map((s, i) => `${s} ${payloads[i]}`)).toEqual(payloads.map((p) => `403 ${p}`));
  });

  it.each(Object.entries(BENIGN))('ordinary traffic passes: %s', async (_name, request) => {
    const res = await send(request);
    expect(res.status, res.text.slice(0, 200)).toBe(200);
  });

  it('names the rule, the part and the value in the security event', async () => {
    await send(placed('json', "1' OR '1'='1"));
    const ours = await f.events(zone.id, `?action=block&rule_id=${ruleId('sqli-body')}&per_page=100`);
    expect(new Set(ours.map((e) => e.rule_message))).toEqual(new Set(['SQLi - Body']));
    expect(ours.flatMap((e) => e.matches)).toContainEqual(
      expect.objectContaining({
        name: expect.stringMatching(/^body:(name|tags)$/),
        value: "1' OR '1'='1",
        message: expect.stringMatching(/^fingerprint /),
      }),
    );
  });
});

describe('per-rule, category and ruleset overrides of the attack rules', () => {
  let f: ProxyFixture;
  let zone: Zone;
  beforeAll(async () => {
    f = await startProxyFixture();
    zone = await f.zone('managed-overrides.example.com', 'pro', 'complete');
  }, 180_000);
  afterAll(() => f?.close());

  const deploy = (overrides: unknown) =>
    f.changed(zone.id, async () => {
      const res = await f.call(
        'PUT',
        `/zones/${zone.id}/rulesets/phases/http_request_firewall_managed/entrypoint`,
        {
          rules: [
            { action: 'execute', expression: 'true', action_parameters: { id: EDGE_RULESET, overrides } },
          ],
        },
      );
      expect(res.status, res.text).toBe(200);
    });
  const status = (r: CorpusRequest) =>
    f
      .send(zone.name, r.path, { method: r.method, headers: r.headers, ...(r.body ? { body: r.body } : {}) })
      .then((x) => x.status);
  const sqli = "1' OR '1'='1";

  it('the managed ruleset lists the rules with their categories', async () => {
    const res = await f.call('GET', `/zones/${zone.id}/rulesets/${EDGE_RULESET}`);
    const rules = (res.body.result as { rules: unknown }).rules as {
      id: string;
      description: string;
      categories: string[];
      action: string;
    }[];
    const byId = new Map(rules.map((r) => [r.id, r]));
    expect(byId.get(ruleId('sqli-uri'))).toMatchObject({
      description: 'SQLi - URI',
      categories: ['sqli'],
      action: 'block',
    });
    expect(byId.get(ruleId('command-execution-body'))?.description).toBe(
      'Generic Rules - Command Execution - Body',
    );
    const categories = new Set(rules.flatMap((r) => r.categories));
    for (const c of ['sqli', 'xss', 'rce', 'lfi', 'rfi', 'ssrf', 'deserialization'])
      expect(categories).toContain(c);
  });

  it('a rule disabled by id stops blocking in its part only', async () => {
    await deploy({ rules: [{ id: ruleId('sqli-uri'), enabled: false }] });
    expect(await status(placed('query', sqli))).toBe(200);
    expect(await status(placed('form', sqli))).toBe(403);
  });

  it('a category set to log lets the family through and records it', async () => {
    await deploy({ categories: [{ category: 'xss', action: 'log' }] });
    expect(await status(placed('query', '<script>alert(1)</script>'))).toBe(200);
    expect(await status(placed('query', sqli))).toBe(403);
    const logged = await f.events(zone.id, '?action=log');
    expect(logged.map((e) => e.rule_id)).toContain(ruleId('xss-uri'));
  });

  it('a rule override wins over its category, and a disabled category turns the family off', async () => {
    await deploy({
      categories: [{ category: 'ssrf', enabled: false }],
      rules: [{ id: ruleId('ssrf-cloud-metadata-uri'), enabled: true }],
    });
    expect(await status(placed('query', 'http://169.254.169.254/latest/meta-data/'))).toBe(403);
    expect(await status(placed('query', 'http://localhost/admin'))).toBe(200);
  });

  it('the ruleset action applies to the attack rules', async () => {
    await deploy({ action: 'log' });
    expect(await status(placed('cookie', ';id'))).toBe(200);
  });
});
