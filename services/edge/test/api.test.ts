import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiToken } from '../src/index.ts';
import { type Answer, call, type EdgeFixture, startEdge } from './helpers.ts';

let f: EdgeFixture;
beforeAll(async () => {
  f = await startEdge();
});
afterAll(async () => {
  await f.close();
});

function expectError(a: Answer, status: number, code: number, message: RegExp) {
  expect(a.status, a.text).toBe(status);
  expect(a.body).toMatchObject({ result: null, success: false, messages: [] });
  expect(a.body.errors[0]!.code).toBe(code);
  expect(a.body.errors[0]!.message).toMatch(message);
}

describe('envelope, routing and tokens', () => {
  it('answers unknown routes and methods under /client/v4 with the envelope', async () => {
    expectError(
      await call(f, 'GET', '/nowhere'),
      404,
      7000,
      /^No route for that URI: GET \/client\/v4\/nowhere$/,
    );
    const wrong = await call(f, 'DELETE', '/zones');
    expectError(
      wrong,
      405,
      10405,
      /Method DELETE is not allowed on \/client\/v4\/zones; use (GET or POST|POST or GET)/,
    );
  });

  it('refuses missing, malformed, foreign and revoked tokens with 401/10000', async () => {
    expectError(await call(f, 'GET', '/zones', { token: null }), 401, 10000, /missing Authorization header/);
    expectError(
      await call(f, 'GET', '/zones', { token: 'svk_' + 'a'.repeat(43) }),
      401,
      10000,
      /not an edge API token/,
    );
    expectError(
      await call(f, 'GET', '/zones', { token: 'cet_' + 'a'.repeat(43) }),
      401,
      10000,
      /invalid or revoked/,
    );
    const token = await f.makeToken([f.zones.pro.id], ['read']);
    expect((await call(f, 'GET', '/user/tokens/verify', { token })).body.result).toMatchObject({
      status: 'active',
    });
    const id = ((await call(f, 'GET', '/user/tokens/verify', { token })).body.result as { id: string }).id;
    await revokeApiToken(f.edge.deps, id);
    expectError(await call(f, 'GET', '/zones', { token }), 401, 10000, /invalid or revoked/);
  });

  it('grants permissions per zone and area: 403/10000 without them', async () => {
    const token = await f.makeToken([f.zones.pro.id], ['waf:edit', 'rulesets:read']);
    const zones = await call(f, 'GET', '/zones', { token });
    expect((zones.body.result as { name: string }[]).map((z) => z.name)).toEqual(['pro.example.com']);
    expect((await call(f, 'GET', `/zones/${f.zones.pro.id}/firewall/waf/packages`, { token })).status).toBe(
      200,
    );
    expect((await call(f, 'GET', `/zones/${f.zones.pro.id}/rulesets`, { token })).status).toBe(200);
    expectError(
      await call(
        f,
        'PUT',
        `/zones/${f.zones.pro.id}/rulesets/phases/http_request_firewall_custom/entrypoint`,
        { token, body: { rules: [] } },
      ),
      403,
      10000,
      /lacks the permission rulesets:edit on zone pro.example.com/,
    );
    expectError(
      await call(f, 'GET', `/zones/${f.zones.pro.id}/pagerules`, { token }),
      403,
      10000,
      /page_rules:read/,
    );
    expectError(
      await call(f, 'GET', `/zones/${f.zones.business.id}`, { token }),
      403,
      10000,
      /no access to zone/,
    );
    expectError(
      await call(f, 'POST', '/zones', {
        token,
        body: { name: 'new.example.com', account: { id: f.accountId } },
      }),
      403,
      10000,
      /zone:edit on every zone/,
    );
  });

  it('validates zone bodies strictly and refuses duplicate names with 1061', async () => {
    const body = { name: 'pro.example.com', account: { id: f.accountId } };
    const dup = await call(f, 'POST', '/zones', { body });
    expectError(dup, 400, 1061, /^pro\.example\.com already exists$/);
    const bad = await call(f, 'POST', '/zones', { body: { ...body, name: 'not a domain' } });
    expect(bad.body.errors[0]).toMatchObject({ code: 10400, source: { pointer: '/name' } });
    const extra = await call(f, 'POST', '/zones', { body: { ...body, name: 'x.example.com', colour: 1 } });
    expect(extra.body.errors[0]).toMatchObject({
      message: 'invalid JSON: unknown field "colour"',
      source: { pointer: '/colour' },
    });
    const json = await call(f, 'POST', '/zones', { raw: '{"name":' });
    expect(json.status).toBe(400);
    expect(json.body.errors[0]!.message).toMatch(/^invalid JSON: /);
    const plan = await call(f, 'POST', '/zones', {
      body: { name: 'biz.example.org', account: { id: f.accountId }, plan: { id: 'business' } },
    });
    expect((plan.body.result as { plan: { legacy_id: string } }).plan.legacy_id).toBe('business');
  });

  it('pages with page/per_page; an empty page past the end; bad paging is 400 naming the parameter', async () => {
    const first = await call(f, 'GET', '/zones?per_page=5&page=1');
    expect(first.body.result_info).toMatchObject({
      page: 1,
      per_page: 5,
      count: 5,
      total_count: 5,
      total_pages: 1,
    });
    const past = await call(f, 'GET', '/zones?per_page=5&page=3');
    expect(past.body.result).toEqual([]);
    expect(past.body.result_info).toMatchObject({ page: 3, count: 0 });
    const bad = await call(f, 'GET', '/zones?per_page=1000');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ code: 10400, source: { parameter: 'per_page' } });
    expect(bad.body.errors[0]!.message).toBe(
      'Query parameter per_page must be an integer from 5 to 50, not "1000"',
    );
  });
});

describe('the previous WAF', () => {
  const waf = (zone: string) => `/zones/${zone}/firewall/waf`;

  it('is for Pro and above: a Free zone gets 400/50002', async () => {
    expectError(
      await call(f, 'GET', `${waf(f.zones.free.id)}/packages`),
      400,
      50002,
      /need the Pro plan or above, and zone free.example.com is on Free/,
    );
    expectError(
      await call(f, 'PATCH', `/zones/${f.zones.free.id}/settings/waf`, { body: { value: 'on' } }),
      400,
      50002,
      /waf setting: it needs the Pro plan/,
    );
  });

  it('only the anomaly package takes sensitivity and action (1027 otherwise); rule modes must be allowed', async () => {
    const zone = f.zones.pro.id;
    const [managed, owasp] = (await call(f, 'GET', `${waf(zone)}/packages`)).body.result as {
      id: string;
      detection_mode: string;
    }[];
    expect(managed!.detection_mode).toBe('traditional');
    expectError(
      await call(f, 'PATCH', `${waf(zone)}/packages/${managed!.id}`, { body: { sensitivity: 'low' } }),
      400,
      1027,
      /^Only anomaly WAF packages can have their package attributes updated$/,
    );
    const patched = await call(f, 'PATCH', `${waf(zone)}/packages/${owasp!.id}`, {
      body: { sensitivity: 'medium' },
    });
    expect(patched.body.result).toMatchObject({ sensitivity: 'medium', action_mode: 'challenge' });
    const bad = await call(f, 'PATCH', `${waf(zone)}/packages/${owasp!.id}`, {
      body: { sensitivity: 'extreme' },
    });
    expect(bad.body.errors[0]).toMatchObject({ code: 10400, source: { pointer: '/sensitivity' } });
    const rule = await call(f, 'PATCH', `${waf(zone)}/packages/${owasp!.id}/rules/942100`, {
      body: { mode: 'block' },
    });
    expectError(rule, 400, 10400, /rule 942100 allows the modes on, off/);
    const off = await call(f, 'PATCH', `${waf(zone)}/packages/${owasp!.id}/rules/942100`, {
      body: { mode: 'off' },
    });
    expect(off.body.result).toMatchObject({ id: '942100', mode: 'off', allowed_modes: ['on', 'off'] });
    const groups = (await call(f, 'GET', `${waf(zone)}/packages/${owasp!.id}/groups?per_page=100`)).body
      .result as { name: string; modified_rules_count: number }[];
    expect(groups.find((g) => g.name.endsWith('SQLI'))!.modified_rules_count).toBe(1);
    const missing = await call(f, 'GET', `${waf(zone)}/packages/${'0'.repeat(32)}`);
    expect(missing.status).toBe(404);
    expect(missing.body.errors.map((e) => e.code)).toEqual([7003, 7000]);
  });

  it('without the CRS, the OWASP features answer 503 naming apt-get install modsecurity-crs', async () => {
    const g = await startEdge({ CAIRN_CRS_DIR: '/nonexistent/crs' });
    try {
      const zone = g.zones.pro.id;
      const [, owasp] = (await call(g, 'GET', `${waf(zone)}/packages`)).body.result as { id: string }[];
      const groups = await call(g, 'GET', `${waf(zone)}/packages/${owasp!.id}/groups`);
      expectError(groups, 503, 10503, /apt-get install modsecurity-crs/);
      expectError(
        await call(g, 'GET', `/zones/${zone}/rulesets/4814384a9e5d4991b9815dcfc25d2f1f`),
        503,
        10503,
        /CAIRN_CRS_DIR/,
      );
      // The edge managed ruleset does not need the CRS.
      expect((await call(g, 'GET', `/zones/${zone}/rulesets/efb7b8c949ac4650a09736fc376e9aee`)).status).toBe(
        200,
      );
      expect(g.deps.logLines.some((l) => l.includes('apt-get install modsecurity-crs'))).toBe(true);
    } finally {
      await g.close();
    }
  });
});

describe('firewall rules, filters and page rules', () => {
  const zone = () => f.zones.pro.id;

  it('checks actions and products: bypass needs products, products need bypass, log needs Enterprise', async () => {
    const rules = `/zones/${zone()}/firewall/rules`;
    const filter = { expression: 'http.host eq "a"' };
    expectError(
      await call(f, 'POST', rules, { body: [{ action: 'bypass', filter }] }),
      400,
      10400,
      /must name the products it bypasses/,
    );
    const products = await call(f, 'POST', rules, { body: [{ action: 'block', products: ['waf'], filter }] });
    expect(products.body.errors[0]).toMatchObject({ source: { pointer: '/0/products' } });
    expectError(
      await call(f, 'POST', rules, { body: [{ action: 'log', filter }] }),
      400,
      50002,
      /needs the Enterprise plan/,
    );
    const badExpr = await call(f, 'POST', rules, {
      body: [{ action: 'block', filter: { expression: 'http.host eq' } }],
    });
    expect(badExpr.body.errors[0]).toMatchObject({
      code: 10400,
      source: { pointer: '/0/filter/expression' },
    });
    expect((await call(f, 'GET', rules)).body.result).toEqual([]);
    expect((await call(f, 'GET', `/zones/${zone()}/filters`)).body.result).toEqual([]);
  });

  it('stores filters longer than the 4 KB rules limit (the WAF upgrade refuses them, not the store)', async () => {
    const long = `http.host in {${Array.from({ length: 400 }, (_, i) => `"h${i}.example.com"`).join(' ')}}`;
    expect(long.length).toBeGreaterThan(4096);
    const made = await call(f, 'POST', `/zones/${zone()}/firewall/rules`, {
      body: [{ action: 'bypass', products: ['waf'], filter: { expression: long } }],
    });
    expect(made.status, made.text).toBe(200);
  });

  it('page rules: supported actions only, values checked, WAF setting for Pro and above, quota per plan', async () => {
    const free = `/zones/${f.zones.free.id}/pagerules`;
    const target = [{ target: 'url', constraint: { operator: 'matches', value: '*free.example.com/*' } }];
    expectError(
      await call(f, 'POST', free, { body: { targets: target, actions: [{ id: 'waf', value: 'off' }] } }),
      400,
      50002,
      /waf page rule action: it needs the Pro plan/,
    );
    const unknown = await call(f, 'POST', free, {
      body: { targets: target, actions: [{ id: 'cache_level', value: 'bypass' }] },
    });
    expect(unknown.body.errors[0]).toMatchObject({ source: { pointer: '/actions/0/id' } });
    const value = await call(f, 'POST', free, {
      body: { targets: target, actions: [{ id: 'security_level', value: 'max' }] },
    });
    expect(value.body.errors[0]).toMatchObject({ source: { pointer: '/actions/0/value' } });
    const noValue = await call(f, 'POST', free, {
      body: { targets: target, actions: [{ id: 'disable_security', value: 'on' }] },
    });
    expect(noValue.body.errors[0]).toMatchObject({ source: { pointer: '/actions/0/value' } });
    for (let i = 0; i < 3; i++) {
      expect(
        (await call(f, 'POST', free, { body: { targets: target, actions: [{ id: 'disable_security' }] } }))
          .status,
      ).toBe(200);
    }
    expectError(
      await call(f, 'POST', free, { body: { targets: target, actions: [{ id: 'disable_security' }] } }),
      400,
      50002,
      /more than 3 page rules on the Free plan/,
    );
  });
});
