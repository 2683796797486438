import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Zone } from '../src/index.ts';
import {
  ANOMALY_RULE,
  OWASP_RULESET,
  type ProxyFixture,
  paranoia,
  poolReady,
  startProxyFixture,
} from './proxy-fixture.ts';

// JSON request bodies through the proxy, OWASP ruleset alone at PL1 with ModSecurity's threshold 5
// (as Debian's nginx + ModSecurity runs the CRS): sqlmap-style payloads in JSON fields are blocked,
// wherever they sit in the document, and ordinary JSON passes.
let f: ProxyFixture;
let zone: Zone;
const HOST = 'json.example.com';

beforeAll(async () => {
  f = await startProxyFixture({ EDGE_PLAN_TTL_MS: '3600000' });
  zone = await f.zone(HOST, 'enterprise', 'complete');
  await f.changed(zone.id, async () => {
    const res = await f.call(
      'PUT',
      `/zones/${zone.id}/rulesets/phases/http_request_firewall_managed/entrypoint`,
      {
        rules: [
          {
            action: 'execute',
            expression: 'true',
            action_parameters: {
              id: OWASP_RULESET,
              overrides: { categories: paranoia(1), rules: [{ id: ANOMALY_RULE, score_threshold: 5 }] },
            },
          },
        ],
      },
    );
    expect(res.status, res.text).toBe(200);
  });
  await poolReady(f, zone.id);
}, 180_000);
afterAll(() => f?.close());

const postJson = (body: string, contentType = 'application/json') =>
  f.send(HOST, '/api/items', {
    method: 'POST',
    headers: { 'content-type': contentType, accept: 'application/json' },
    body,
  });

const ATTACKS: Record<string, string> = {
  'UNION in a string field': '{"id":"1 AND 1=2 UNION SELECT username,password FROM users--"}',
  'quote and comment': `{"user":"admin'--","password":"x"}`,
  'boolean blind': '{"id":"1) AND 5678=5678 AND (1234=1234"}',
  'time based': '{"id":"1 AND SLEEP(5)"}',
  'nested arrays': '{"filter":{"ids":[1,[2,["1 UNION ALL SELECT NULL,NULL,NULL--"]]]}}',
  'array of objects': `{"rows":[{"name":"ok"},{"name":"x' OR '1'='1"}]}`,
  'top-level array': `["a","1' UNION SELECT password FROM users--"]`,
  'escaped in JSON': '{"q":"1\\u0027 OR \\u00271\\u0027=\\u00271"}',
  'XSS in a field': '{"comment":"<script>alert(document.cookie)</script>"}',
  // over EDGE_WAF_POOL_THRESHOLD (4 KiB): evaluated on the worker pool
  'in a 20 KB document': JSON.stringify({
    items: Array.from({ length: 200 }, (_, i) => ({ sku: `SKU-${i}`, qty: 1, note: 'leave at the door' })),
    id: '1 UNION ALL SELECT username,password FROM users--',
  }),
};

describe('JSON bodies through the proxy (OWASP PL1, threshold 5)', () => {
  it('blocks sqlmap-style payloads in JSON fields at any depth', async () => {
    for (const [name, body] of Object.entries(ATTACKS)) {
      const res = await postJson(body);
      expect(res.status, name).toBe(403);
    }
  });

  it('reads JSON under the Content-Type variants ModSecurity reads as JSON', async () => {
    const body = ATTACKS['quote and comment'] as string;
    for (const type of ['application/json; charset=utf-8', 'Application/JSON']) {
      expect((await postJson(body, type)).status, type).toBe(403);
    }
  });

  it('names JSON arguments as ModSecurity does in the security events', async () => {
    const res = await postJson(ATTACKS['nested arrays'] as string);
    expect(res.status).toBe(403);
    const ray = String(res.headers['cf-ray']).slice(0, 16);
    const [event] = await f.events(zone.id, `?ray_id=${ray}`);
    const names = (event?.matches as { name: string }[] | undefined)?.map((d) => d.name) ?? [];
    expect(names).toContain('ARGS:json.filter.ids.array_1.array_1.array_0');
  });

  it('lets ordinary JSON through: numbers, booleans, null, empty values, nesting', async () => {
    const benign = [
      { items: [{ sku: 'TENT-2', qty: 1, gift: false }], note: 'leave at the door', coupon: null },
      { user: { name: "Dave O'Brien", email: 'dave@example.com', tags: [], prefs: {} } },
      { query: 'select a tent for two people', page: 2, sort: 'price', desc: true },
      [1, 2.5, -3e2, 'x', [true, null]],
    ];
    for (const doc of benign) {
      const res = await postJson(JSON.stringify(doc));
      expect(res.status, JSON.stringify(doc)).toBe(200);
    }
  });

  it("refuses malformed JSON as ModSecurity does (rule 200002), naming yajl's error", async () => {
    const cases: [string, string][] = [
      ['{"id": 1 AND 1=2}', 'invalid char in json text'],
      ['{"id":"1"} x', 'trailing garbage'],
      ['{"a":[1,2', 'premature EOF'],
    ];
    for (const [body, error] of cases) {
      const res = await postJson(body);
      expect(res.status, body).toBe(403);
      const [event] = await f.events(zone.id, `?ray_id=${String(res.headers['cf-ray']).slice(0, 16)}`);
      expect(event?.rule_id, body).toBe('200002');
      expect(JSON.stringify(event), body).toContain(error);
    }
  });
});
