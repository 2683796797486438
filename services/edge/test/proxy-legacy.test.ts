import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Zone } from '../src/index.ts';
import { ATTACKS, EDGE_RULESET, type ProxyFixture, startProxyFixture } from './proxy-fixture.ts';

// The previous WAF managed rules through the proxy (zones not upgraded), and validation mode.
let f: ProxyFixture;

beforeAll(async () => {
  f = await startProxyFixture();
}, 60_000);
afterAll(() => f?.close());

async function configure(zone: Zone, method: string, path: string, body: unknown) {
  await f.changed(zone.id, async () => {
    const res = await f.call(method, `/zones/${zone.id}${path}`, body);
    expect(res.status, res.text).toBe(200);
  });
}

async function packages(zone: Zone) {
  const res = await f.call('GET', `/zones/${zone.id}/firewall/waf/packages`);
  const list = res.body.result as { id: string; detection_mode: string }[];
  return {
    managed: list.find((p) => p.detection_mode === 'traditional')!.id,
    owasp: list.find((p) => p.detection_mode === 'anomaly')!.id,
  };
}

const rayOf = (headers: Record<string, unknown>) => String(headers['cf-ray']).slice(0, 16);

describe('the previous WAF managed rules', () => {
  let zone: Zone;
  beforeAll(async () => {
    zone = await f.zone('legacy.example.com', 'pro');
  });

  it('does nothing while the zone waf setting is off; blocks known attacks with its packages on', async () => {
    for (const attack of Object.values(ATTACKS)) {
      expect((await f.send('legacy.example.com', attack.path, attack)).status).toBe(200);
    }
    await configure(zone, 'PATCH', '/settings/waf', { value: 'on' });
    for (const [name, attack] of Object.entries(ATTACKS)) {
      const res = await f.send('legacy.example.com', attack.path, attack);
      // the managed package blocks; the OWASP package's default action is challenge
      expect(res.status, name).toBe(403);
    }
    expect(
      (await f.send('legacy.example.com', '/products?page=2', { headers: { accept: '*/*' } })).status,
    ).toBe(200);
    const events = await f.events(zone.id, '?source=waf');
    expect(events.length).toBeGreaterThanOrEqual(5);
    expect(events.every((e) => e.waf === 'previous')).toBe(true);
  });

  it('page rules WAF off and Disable Security, and bypass firewall rules, exempt their URLs', async () => {
    await configure(zone, 'POST', '/pagerules', {
      targets: [{ target: 'url', constraint: { operator: 'matches', value: 'legacy.example.com/open/*' } }],
      actions: [{ id: 'waf', value: 'off' }],
      status: 'active',
    });
    await configure(zone, 'POST', '/pagerules', {
      targets: [{ target: 'url', constraint: { operator: 'matches', value: '*legacy.example.com/ds/*' } }],
      actions: [{ id: 'disable_security' }],
      status: 'active',
    });
    await configure(zone, 'POST', '/firewall/rules', [
      {
        filter: { expression: 'starts_with(http.request.uri.path, "/bypass/")' },
        action: 'bypass',
        products: ['waf'],
      },
    ]);
    const attack = ATTACKS.shellshock!;
    for (const prefix of ['/open', '/ds', '/bypass']) {
      expect((await f.send('legacy.example.com', `${prefix}/x`, attack)).status, prefix).toBe(200);
    }
    expect((await f.send('legacy.example.com', '/closed/x', attack)).status).toBe(403);
  });

  it('rule modes, the OWASP package (sensitivity, action) and URI-based overrides', async () => {
    const ids = await packages(zone);
    // shellshock (legacy rule 100010) to simulate: logged, let through
    await configure(zone, 'PATCH', `/firewall/waf/packages/${ids.managed}/rules/100010`, {
      mode: 'simulate',
    });
    const shell = await f.send('legacy.example.com', '/cgi-bin/a', {
      headers: { 'user-agent': '() { :; }; echo' },
    });
    expect(shell.status).toBe(200);
    const [logged] = await f.events(zone.id, `?ray_id=${rayOf(shell.headers)}`);
    expect(logged).toMatchObject({ action: 'log', rule_id: '100010', source: 'waf' });

    // the managed package off entirely: the OWASP package alone (high sensitivity: 25 points) decides
    const groups = (
      await f.call('GET', `/zones/${zone.id}/firewall/waf/packages/${ids.managed}/groups?per_page=100`)
    ).body.result as { id: string }[];
    for (const g of groups) {
      await configure(zone, 'PATCH', `/firewall/waf/packages/${ids.managed}/groups/${g.id}`, { mode: 'off' });
    }
    await configure(zone, 'PATCH', `/firewall/waf/packages/${ids.owasp}`, {
      sensitivity: 'high',
      action_mode: 'block',
    });
    const traversal = await f.send('legacy.example.com', ATTACKS.traversal!.path); // CRS: 30 points at PL1
    expect(traversal.status).toBe(403);
    expect(traversal.headers['cf-mitigated']).toBe('block');
    const [owasp] = await f.events(zone.id, `?ray_id=${rayOf(traversal.headers)}`);
    expect(owasp).toMatchObject({ rule_id: '949110', ruleset_id: ids.owasp, action: 'block' });
    await configure(zone, 'PATCH', `/firewall/waf/packages/${ids.owasp}`, { sensitivity: 'low' }); // 60
    expect((await f.send('legacy.example.com', ATTACKS.traversal!.path)).status).toBe(200);
    await configure(zone, 'PATCH', `/firewall/waf/packages/${ids.owasp}`, {
      sensitivity: 'high',
      action_mode: 'simulate',
    });
    const simulated = await f.send('legacy.example.com', ATTACKS.traversal!.path);
    expect(simulated.status).toBe(200);
    expect((await f.events(zone.id, `?ray_id=${rayOf(simulated.headers)}`))[0]).toMatchObject({
      action: 'log',
    });

    // a URI-based override turning the traversal rules off under /uploads/
    await configure(zone, 'PATCH', `/firewall/waf/packages/${ids.owasp}`, { action_mode: 'block' });
    await configure(zone, 'POST', '/firewall/waf/overrides', {
      urls: ['legacy.example.com/uploads/*'],
      rules: { '930100': 'disable', '930110': 'disable', '930120': 'disable', '932160': 'disable' },
    });
    expect((await f.send('legacy.example.com', `/uploads${ATTACKS.traversal!.path}`)).status).toBe(200);
    expect((await f.send('legacy.example.com', ATTACKS.traversal!.path)).status).toBe(403);
  });
});

describe('validation mode: both WAFs, the new one first', () => {
  let zone: Zone;
  beforeAll(async () => {
    zone = await f.zone('both.example.com', 'enterprise');
    await configure(zone, 'PATCH', '/settings/waf', { value: 'on' });
    await configure(zone, 'PUT', '/rulesets/phases/http_request_firewall_managed/entrypoint', {
      rules: [{ action: 'execute', expression: 'true', action_parameters: { id: EDGE_RULESET } }],
    });
    await f.changed(zone.id, () =>
      f.deps.db.query(`UPDATE edge_zones SET waf_migration_state = 'validation' WHERE id = $1`, [zone.id]),
    );
  });

  it('records the events of both; a block by either blocks, the new one answering first', async () => {
    const res = await f.send('both.example.com', '/', ATTACKS.log4shell);
    expect(res.status).toBe(403);
    const events = await f.events(zone.id, `?ray_id=${rayOf(res.headers)}`);
    // newest first: the previous WAF's event was recorded after the new one's
    expect(events.map((e) => [e.waf, e.action])).toEqual([
      ['previous', 'block'],
      ['new', 'block'],
    ]);
    expect(events[1]).toMatchObject({ source: 'firewallManaged', ruleset_id: EDGE_RULESET });
    expect(events[0]).toMatchObject({ source: 'waf' });
  });

  it('the new WAF set to log while the previous one blocks: blocked, both recorded', async () => {
    await configure(zone, 'PUT', '/rulesets/phases/http_request_firewall_managed/entrypoint', {
      rules: [
        {
          action: 'execute',
          expression: 'true',
          action_parameters: { id: EDGE_RULESET, overrides: { action: 'log' } },
        },
      ],
    });
    const res = await f.send('both.example.com', '/', ATTACKS.log4shell);
    expect(res.status).toBe(403);
    const events = await f.events(zone.id, `?ray_id=${rayOf(res.headers)}`);
    expect(events.map((e) => [e.waf, e.action])).toEqual([
      ['previous', 'block'],
      ['new', 'log'],
    ]);
  });

  it('after the upgrade only the new WAF runs', async () => {
    await f.changed(zone.id, () =>
      f.deps.db.query(`UPDATE edge_zones SET waf_migration_state = 'complete' WHERE id = $1`, [zone.id]),
    );
    const res = await f.send('both.example.com', '/', ATTACKS.log4shell);
    expect(res.status).toBe(200);
    const events = await f.events(zone.id, `?ray_id=${rayOf(res.headers)}`);
    expect(events.map((e) => [e.waf, e.action])).toEqual([['new', 'log']]);
  });
});
