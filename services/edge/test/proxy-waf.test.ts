import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Zone } from '../src/index.ts';
import {
  ANOMALY_RULE,
  ATTACKS,
  EDGE_RULESET,
  OWASP_RULESET,
  type ProxyFixture,
  paranoia,
  startProxyFixture,
} from './proxy-fixture.ts';

// The new WAF (zones upgraded: migration state complete) through the proxy, on the real CRS at PL1.
let f: ProxyFixture;

beforeAll(async () => {
  // Plans live an hour here (default 10 s): the plan cache test counts compiles, and on a loaded machine
  // 10 s can pass between two of its requests, so an expiry would count as a change.
  f = await startProxyFixture({ EDGE_PLAN_TTL_MS: '3600000' });
}, 60_000);
afterAll(() => f?.close());

type Rule = Record<string, unknown>;

async function deploy(zone: Zone, phase: string, rules: Rule[]) {
  await f.changed(zone.id, async () => {
    const res = await f.call('PUT', `/zones/${zone.id}/rulesets/phases/${phase}/entrypoint`, { rules });
    expect(res.status, res.text).toBe(200);
  });
}

const executeEdge = (overrides?: Rule): Rule => ({
  action: 'execute',
  expression: 'true',
  action_parameters: { id: EDGE_RULESET, ...(overrides ? { overrides } : {}) },
});
const executeOwasp = (pl: number, rules: Rule[] = [], extra: Rule = {}): Rule => ({
  action: 'execute',
  expression: 'true',
  action_parameters: { id: OWASP_RULESET, overrides: { categories: paranoia(pl), rules, ...extra } },
});

describe('the new WAF Managed Rules', () => {
  let zone: Zone;
  beforeAll(async () => {
    zone = await f.zone('new.example.com', 'enterprise', 'complete');
  });

  it('lets benign traffic through before anything is deployed, and blocks known attacks once both managed rulesets are (PL1)', async () => {
    expect((await f.send('new.example.com', ATTACKS.sqli!.path)).status).toBe(200);
    await deploy(zone, 'http_request_firewall_managed', [executeEdge(), executeOwasp(1)]);
    for (const [name, attack] of Object.entries(ATTACKS)) {
      const res = await f.send('new.example.com', attack.path, attack);
      expect(res.status, name).toBe(403);
      expect(res.headers['cf-mitigated'], name).toBe('block');
      expect(res.text, name).toContain(String(res.headers['cf-ray']).slice(0, 16));
    }
    for (const path of ['/', '/products?page=2&sort=price', '/search?q=hiking+boots']) {
      expect((await f.send('new.example.com', path, { headers: { accept: 'text/html' } })).status, path).toBe(
        200,
      );
    }
    const form = await f.send('new.example.com', '/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: '*/*' },
      body: 'name=Ada+Lovelace&message=Hello%2C+I+would+like+a+quote+for+two+tents.',
    });
    expect(form.status).toBe(200);
    const json = await f.send('new.example.com', '/api/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ items: [{ sku: 'TENT-2', qty: 1 }], note: 'leave at the door' }),
    });
    expect(json.status).toBe(200);

    const events = await f.events(zone.id, '?action=block');
    expect(events.length).toBeGreaterThanOrEqual(5);
    const sqli = events.find((e) => String(e.query).includes('union'));
    expect(sqli).toMatchObject({
      source: 'firewallManaged',
      waf: 'new',
      phase: 'http_request_firewall_managed',
      ruleset_id: EDGE_RULESET,
      ip: '127.0.0.1',
      method: 'GET',
      host: 'new.example.com',
      path: '/item',
      ua: 'cairn-test/1.0',
    });
    expect(((sqli?.matches ?? []) as unknown[]).length).toBeGreaterThan(0);
  });

  it('a skip rule before the execute rules exempts its paths; skip events are recorded', async () => {
    await deploy(zone, 'http_request_firewall_managed', [
      {
        action: 'skip',
        expression: 'starts_with(http.request.uri.path, "/internal/")',
        action_parameters: { ruleset: 'current' },
        description: 'internal tools',
      },
      executeEdge(),
      executeOwasp(1),
    ]);
    expect((await f.send('new.example.com', `/internal${ATTACKS.sqli!.path}`)).status).toBe(200);
    expect((await f.send('new.example.com', ATTACKS.sqli!.path)).status).toBe(403);
    const skips = await f.events(zone.id, '?action=skip');
    expect(skips[0]).toMatchObject({ path: '/internal/item', rule_message: 'internal tools' });
  });

  it('skip of one managed rule (rules map) and of whole rulesets', async () => {
    const blocked = await f.send('new.example.com', '/', ATTACKS.log4shell);
    expect(blocked.status).toBe(403);
    const [event] = await f.events(zone.id, `?ray_id=${String(blocked.headers['cf-ray']).slice(0, 16)}`);
    const ruleId = String(event?.rule_id);
    await deploy(zone, 'http_request_firewall_managed', [
      {
        action: 'skip',
        expression: 'http.request.uri.path eq "/"',
        action_parameters: { rules: { [EDGE_RULESET]: [ruleId] } },
      },
      {
        action: 'skip',
        expression: 'http.request.uri.path eq "/owasp-off"',
        action_parameters: { rulesets: [OWASP_RULESET] },
      },
      executeEdge(),
      executeOwasp(1, [{ id: ANOMALY_RULE, score_threshold: 5 }]),
    ]);
    expect((await f.send('new.example.com', '/', ATTACKS.log4shell)).status).toBe(200);
    expect((await f.send('new.example.com', '/other', ATTACKS.log4shell)).status).toBe(403);
    // OWASP alone blocks a scanner's user agent at threshold 5 (913100; the edge signatures know only a
    // few scanners, and their attack rules now catch an SQLi such as 1' or '1'='1 too), unless skipped
    const scanner = { headers: { 'user-agent': 'Arachni/v1.5.1' } };
    expect((await f.send('new.example.com', '/owasp-off', scanner)).status).toBe(200);
    expect((await f.send('new.example.com', '/owasp-on', scanner)).status).toBe(403);
  });
});

describe('overrides of the managed rulesets', () => {
  let zone: Zone;
  let ruleId: string;
  beforeAll(async () => {
    zone = await f.zone('overrides.example.com', 'enterprise', 'complete');
    await deploy(zone, 'http_request_firewall_managed', [executeEdge()]);
    const res = await f.send('overrides.example.com', '/', ATTACKS.log4shell);
    expect(res.status).toBe(403);
    const [event] = await f.events(zone.id, `?ray_id=${String(res.headers['cf-ray']).slice(0, 16)}`);
    ruleId = String(event?.rule_id);
  });

  it('a rule overridden to log lets the request through and logs it', async () => {
    await deploy(zone, 'http_request_firewall_managed', [
      executeEdge({ rules: [{ id: ruleId, action: 'log' }] }),
    ]);
    const res = await f.send('overrides.example.com', '/', ATTACKS.log4shell);
    expect(res.status).toBe(200);
    const logged = await f.events(zone.id, `?action=log&rule_id=${ruleId}`);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ ruleset_id: EDGE_RULESET, source: 'firewallManaged' });
  });

  it('a disabled rule does nothing; a category override and a ruleset-wide action apply too', async () => {
    await deploy(zone, 'http_request_firewall_managed', [
      executeEdge({ rules: [{ id: ruleId, enabled: false }] }),
    ]);
    expect((await f.send('overrides.example.com', '/', ATTACKS.log4shell)).status).toBe(200);
    await deploy(zone, 'http_request_firewall_managed', [
      executeEdge({ categories: [{ category: 'log4j', enabled: false }] }),
    ]);
    expect((await f.send('overrides.example.com', '/', ATTACKS.log4shell)).status).toBe(200);
    expect((await f.send('overrides.example.com', ATTACKS.traversal!.path)).status).toBe(403);
    await deploy(zone, 'http_request_firewall_managed', [executeEdge({ action: 'managed_challenge' })]);
    const challenged = await f.send('overrides.example.com', ATTACKS.traversal!.path);
    expect(challenged.status).toBe(403);
    expect(challenged.headers['cf-mitigated']).toBe('challenge');
    expect((await f.events(zone.id, '?action=managed_challenge')).length).toBe(1);
  });

  it('the score threshold and the paranoia level of the OWASP ruleset change outcomes', async () => {
    const sqli = "/item?id=1'%20or%20'1'%3D'1"; // CRS 942100 alone: 5 points at PL1
    await deploy(zone, 'http_request_firewall_managed', [executeOwasp(1)]);
    expect((await f.send('overrides.example.com', sqli)).status).toBe(200); // default threshold 40
    await deploy(zone, 'http_request_firewall_managed', [
      executeOwasp(1, [{ id: ANOMALY_RULE, score_threshold: 5 }]),
    ]);
    expect((await f.send('overrides.example.com', sqli)).status).toBe(403);
    const [anomaly] = await f.events(zone.id, `?rule_id=${ANOMALY_RULE}`);
    expect(anomaly).toMatchObject({ ruleset_id: OWASP_RULESET, action: 'block' });
    expect(String(anomaly?.rule_message)).toContain('949110: Inbound Anomaly Score Exceeded (score 5');
    expect(((anomaly?.matches ?? []) as { rule_id: string }[]).map((m) => m.rule_id)).toContain('942100');

    // No Accept header: CRS 920300 (2 points) runs from PL2 only.
    const plain = { headers: { 'user-agent': 'Mozilla/5.0' } };
    await deploy(zone, 'http_request_firewall_managed', [
      executeOwasp(1, [{ id: ANOMALY_RULE, score_threshold: 2 }]),
    ]);
    expect((await f.send('overrides.example.com', '/about', plain)).status).toBe(200);
    await deploy(zone, 'http_request_firewall_managed', [
      executeOwasp(2, [{ id: ANOMALY_RULE, score_threshold: 2 }]),
    ]);
    expect((await f.send('overrides.example.com', '/about', plain)).status).toBe(403);
    // the anomaly action overridden to log: recorded, not blocked
    await deploy(zone, 'http_request_firewall_managed', [
      executeOwasp(2, [{ id: ANOMALY_RULE, score_threshold: 2, action: 'log' }]),
    ]);
    expect((await f.send('overrides.example.com', '/about', plain)).status).toBe(200);
    expect((await f.events(zone.id, `?action=log&rule_id=${ANOMALY_RULE}`)).length).toBe(1);
  });
});

describe('custom rules (http_request_firewall_custom)', () => {
  let zone: Zone;
  beforeAll(async () => {
    zone = await f.zone('custom.example.com', 'enterprise', 'complete');
    await deploy(zone, 'http_request_firewall_managed', [executeEdge()]);
  });

  it('block with a custom response, challenge, log, and skip of the managed phase', async () => {
    await deploy(zone, 'http_request_firewall_custom', [
      {
        action: 'block',
        expression: 'http.request.uri.path eq "/admin"',
        action_parameters: {
          response: { status_code: 429, content: '{"error":"no"}', content_type: 'application/json' },
        },
      },
      { action: 'js_challenge', expression: 'http.request.uri.path eq "/login"' },
      { action: 'log', expression: 'http.request.method eq "DELETE"', description: 'deletes' },
      {
        action: 'skip',
        expression: 'ip.src in {127.0.0.0/8} and http.request.uri.path eq "/trusted"',
        action_parameters: { phases: ['http_request_firewall_managed'] },
        logging: { enabled: false },
      },
    ]);
    const admin = await f.send('custom.example.com', '/admin');
    expect(admin.status).toBe(429);
    expect(admin.text).toBe('{"error":"no"}');
    expect(admin.headers['content-type']).toBe('application/json');
    const login = await f.send('custom.example.com', '/login');
    expect(login.status).toBe(403);
    expect(login.headers['cf-mitigated']).toBe('challenge');
    expect((await f.send('custom.example.com', '/trusted', ATTACKS.log4shell)).status).toBe(200);
    expect((await f.send('custom.example.com', '/untrusted', ATTACKS.log4shell)).status).toBe(403);
    const events = await f.events(zone.id, '?source=firewallCustom');
    expect(events.map((e) => e.action).sort()).toEqual(['block', 'js_challenge']);
    expect(await f.events(zone.id, '?action=skip')).toHaveLength(0);
  });
});

describe('the compiled plan cache', () => {
  it('takes a change into account on the next request (NOTIFY), compiling once per change', async () => {
    const zone = await f.zone('cache.example.com', 'enterprise', 'complete');
    expect((await f.send('cache.example.com', ATTACKS.traversal!.path)).status).toBe(200);
    const before = f.edge.engine.compiles;
    expect((await f.send('cache.example.com', ATTACKS.traversal!.path)).status).toBe(200);
    expect(f.edge.engine.compiles).toBe(before); // served from the cache
    await deploy(zone, 'http_request_firewall_managed', [executeEdge()]);
    expect((await f.send('cache.example.com', ATTACKS.traversal!.path)).status).toBe(403);
    expect(f.edge.engine.compiles).toBe(before + 1);
    // a zone setting change, a page rule… any write to the zone's configuration drops the plan
    await f.changed(zone.id, () =>
      f.call('PATCH', `/zones/${zone.id}/settings/security_level`, { value: 'high' }),
    );
    expect((await f.send('cache.example.com', '/')).status).toBe(200);
    expect(f.edge.engine.compiles).toBe(before + 2);
  });
});

describe('GET /zones/{id}/security/events', () => {
  it('pages and filters; refuses bad filters', async () => {
    const zone = await f.zone('events.example.com', 'enterprise', 'complete');
    await deploy(zone, 'http_request_firewall_managed', [executeEdge()]);
    for (let i = 0; i < 7; i++) await f.send('events.example.com', `/p${i}`, ATTACKS.shellshock);
    await f.edge.recorder.flush();
    const page = await f.call('GET', `/zones/${zone.id}/security/events?per_page=5&page=2`);
    expect(page.status).toBe(200);
    expect(page.body.result).toHaveLength(2);
    expect(page.body.result_info).toMatchObject({ page: 2, per_page: 5, count: 2, total_count: 7 });
    const bad = await f.call('GET', `/zones/${zone.id}/security/events?action=explode`);
    expect(bad.status).toBe(400);
    const none = await f.call('GET', `/zones/${zone.id}/security/events?source=waf`);
    expect(none.body.result).toEqual([]);
  });
});
