import fc from 'fast-check';
import { getIntrospectionQuery } from 'graphql';
import { ClientError, GraphQLClient, gql } from 'graphql-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_FIELDS, OPERATORS } from '../src/analytics/fields.ts';
import { MAX_DATASET_NODES } from '../src/analytics/limits.ts';
import type { Zone } from '../src/index.ts';
import {
  ATTACKS,
  deployEdgeRuleset,
  EDGE_RULESET,
  type ProxyFixture,
  startProxyFixture,
} from './proxy-fixture.ts';

// The GraphQL Analytics API's Security Events datasets, asked with a GraphQL client as Grafana or a SIEM
// pipeline would, over events the proxy really recorded.
let f: ProxyFixture;
let zone: Zone;
let other: Zone;
let client: GraphQLClient;
let since: string;
const rays: Record<string, string> = {};

const clientWith = (token: string) =>
  new GraphQLClient(`${f.api}/graphql`, { headers: { authorization: `Bearer ${token}` } });

/** The GraphQL errors of a query that must fail. */
async function errorsOf(c: GraphQLClient, query: string, variables?: Record<string, unknown>) {
  try {
    await c.request(query, variables);
  } catch (e) {
    if (e instanceof ClientError) return (e.response.errors ?? []).map((x) => x.message);
    throw e;
  }
  throw new Error('the query succeeded');
}

beforeAll(async () => {
  f = await startProxyFixture();
  zone = await f.zone('analytics.example.com', 'enterprise', 'complete');
  other = await f.zone('elsewhere.example.com', 'enterprise', 'complete');
  since = new Date(f.deps.clock.now().getTime() - 3_600_000).toISOString();
  await deployEdgeRuleset(f, zone.id);
  for (const name of ['xss', 'traversal', 'log4shell', 'shellshock'] as const) {
    const attack = ATTACKS[name]!;
    const res = await f.send(zone.name, attack.path, attack);
    expect(res.status, name).toBe(403);
    rays[name] = String(res.headers['cf-ray']).split('-')[0]!;
  }
  const again = await f.send(zone.name, ATTACKS.xss!.path, { method: 'POST', body: 'x' });
  expect(again.status).toBe(403);
  expect((await f.send(zone.name, '/products?page=2')).status).toBe(200);
  await f.edge.recorder.flush();
  client = clientWith(f.token);
}, 60_000);
afterAll(() => f?.close());

const EVENTS = gql`
  query Events($zoneTag: String!, $filter: ZoneFirewallEventsAdaptiveFilter_InputObject) {
    viewer {
      zones(filter: { zoneTag: $zoneTag }) {
        zoneTag
        firewallEventsAdaptive(filter: $filter, limit: 100, orderBy: [datetime_DESC]) {
          action
          clientIP
          clientRequestPath
          clientRequestQuery
          clientRequestHTTPMethodName
          clientRequestHTTPHost
          datetime
          description
          edgeResponseStatus
          rayName
          ruleId
          rulesetId
          source
          userAgent
          matchedData {
            name
            value
          }
        }
      }
    }
  }
`;

interface EventRow {
  action: string;
  clientIP: string;
  clientRequestPath: string;
  clientRequestQuery: string;
  clientRequestHTTPMethodName: string;
  clientRequestHTTPHost: string;
  datetime: string;
  description: string;
  edgeResponseStatus: number | null;
  rayName: string;
  ruleId: string;
  rulesetId: string;
  source: string;
  userAgent: string;
  matchedData: { name: string; value: string }[];
}
type EventsAnswer = { viewer: { zones: { zoneTag: string; firewallEventsAdaptive: EventRow[] }[] } };

async function events(filter: Record<string, unknown>) {
  const answer = await client.request<EventsAnswer>(EVENTS, { zoneTag: zone.id, filter });
  return answer.viewer.zones[0]!.firewallEventsAdaptive;
}

describe('firewallEventsAdaptive', () => {
  it('lists the blocked requests with the real field names, newest first', async () => {
    const rows = await events({ datetime_geq: since, action: 'block' });
    expect(rows).toHaveLength(5);
    const xss = rows.find((r) => r.rayName === rays.xss);
    expect(xss).toMatchObject({
      action: 'block',
      clientIP: '127.0.0.1',
      clientRequestPath: '/search',
      clientRequestHTTPMethodName: 'GET',
      clientRequestHTTPHost: zone.name,
      edgeResponseStatus: 403,
      rulesetId: EDGE_RULESET,
      source: 'firewallManaged',
      userAgent: 'cairn-test/1.0',
    });
    expect(xss!.clientRequestQuery).toContain('script');
    expect(xss!.datetime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(xss!.matchedData.length).toBeGreaterThan(0);
    const times = rows.map((r) => r.datetime);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('applies the real operators: _in, _neq, _like, _gt/_lt, AND and OR', async () => {
    expect(await events({ clientRequestHTTPMethodName_neq: 'GET' })).toHaveLength(1);
    expect(await events({ rayName_in: [rays.xss, rays.log4shell] })).toHaveLength(2);
    const like = await events({ clientRequestPath_like: '/cgi-bin/%' });
    expect(like.map((r) => r.rayName)).toEqual([rays.shellshock]);
    expect(await events({ clientRequestPath_notlike: '/search%', action: 'block' })).toHaveLength(3);
    const or = await events({
      OR: [{ clientRequestPath: '/files' }, { clientRequestPath: '/cgi-bin/status' }],
    });
    expect(or).toHaveLength(2);
    const and = await events({
      AND: [{ clientRequestPath: '/search' }, { clientRequestHTTPMethodName: 'POST' }],
    });
    expect(and).toHaveLength(1);
    const future = new Date(f.deps.clock.now().getTime() + 60_000).toISOString();
    expect(await events({ datetime_gt: future })).toHaveLength(0);
    expect((await events({ datetime_lt: future, datetime_geq: since })).length).toBeGreaterThanOrEqual(5);
  });
});

describe('firewallEventsAdaptiveGroups', () => {
  it('counts by dimension, largest first, and the counts add up to the events', async () => {
    const answer = await client.request<{
      viewer: {
        zones: {
          byRule: { count: number; dimensions: { ruleId: string; description: string } }[];
          total: { count: number }[];
          byPath: { count: number; dimensions: { clientRequestPath: string } }[];
          timeline: { count: number; dimensions: { action: string; datetimeFiveMinutes: string } }[];
        }[];
      };
    }>(
      gql`
        query Groups($zoneTag: String!, $since: Time!) {
          viewer {
            zones(filter: { zoneTag: $zoneTag }) {
              byRule: firewallEventsAdaptiveGroups(filter: { datetime_geq: $since }, limit: 10, orderBy: [count_DESC]) {
                count
                dimensions {
                  ruleId
                  description
                }
              }
              total: firewallEventsAdaptiveGroups(filter: { datetime_geq: $since }, limit: 1) {
                count
              }
              byPath: firewallEventsAdaptiveGroups(filter: { datetime_geq: $since }, limit: 1, orderBy: [count_DESC]) {
                count
                dimensions {
                  clientRequestPath
                }
              }
              timeline: firewallEventsAdaptiveGroups(filter: { datetime_geq: $since }, limit: 100, orderBy: [datetimeFiveMinutes_ASC]) {
                count
                dimensions {
                  action
                  datetimeFiveMinutes
                }
              }
            }
          }
        }
      `,
      { zoneTag: zone.id, since },
    );
    const z = answer.viewer.zones[0]!;
    const all = await events({ datetime_geq: since });
    expect(z.total[0]!.count).toBe(all.length);
    expect(z.byRule.reduce((n, g) => n + g.count, 0)).toBe(all.length);
    const counts = z.byRule.map((g) => g.count);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    expect(z.byPath[0]).toEqual({ count: 2, dimensions: { clientRequestPath: '/search' } });
    expect(z.timeline.every((g) => g.dimensions.datetimeFiveMinutes.endsWith(':00Z'))).toBe(true);
    expect(z.timeline.reduce((n, g) => n + g.count, 0)).toBe(all.length);
  });
});

describe('auth and bad input', () => {
  it('reads a zone only with a token that may read its analytics', async () => {
    const onlyOther = await f.makeToken([other.id], ['waf:read']);
    expect((await errorsOf(clientWith(onlyOther), EVENTS, { zoneTag: zone.id }))[0]).toMatch(
      /no access to zone/,
    );
    const dnsOnly = await f.makeToken([zone.id], ['dns:read']);
    expect((await errorsOf(clientWith(dnsOnly), EVENTS, { zoneTag: zone.id }))[0]).toMatch(
      /lacks analytics access \(waf:read or firewall:read\)/,
    );
    const reader = await f.makeToken([zone.id], ['firewall:read']);
    const answer = await clientWith(reader).request<EventsAnswer>(EVENTS, { zoneTag: zone.id });
    expect(answer.viewer.zones[0]!.firewallEventsAdaptive.length).toBeGreaterThan(0);
    const anonymous = new GraphQLClient(`${f.api}/graphql`);
    expect((await errorsOf(anonymous, EVENTS, { zoneTag: zone.id }))[0]).toMatch(
      /missing Authorization header/,
    );
  });

  it('names an unknown field, filter or order', async () => {
    const q = (inner: string) => `{ viewer { zones(filter: {zoneTag: "${zone.id}"}) { ${inner} } } }`;
    expect(await errorsOf(client, q('firewallEventsAdaptive(limit: 1) { bogusField }'))).toEqual([
      expect.stringContaining('Cannot query field "bogusField" on type "ZoneFirewallEventsAdaptive"'),
    ]);
    expect(
      (await errorsOf(client, q('firewallEventsAdaptive(limit: 1, filter: {colo_in: ["x"]}) { action }')))[0],
    ).toContain('"colo_in"');
    expect(
      (await errorsOf(client, q('firewallEventsAdaptive(limit: 1, orderBy: [sideways]) { action }')))[0],
    ).toContain('sideways');
    expect(
      (
        await errorsOf(
          client,
          q('firewallEventsAdaptive(limit: 1, filter: {datetime_geq: "yesterday"}) { action }'),
        )
      )[0],
    ).toContain('is not an RFC 3339 time');
    expect((await errorsOf(client, q('firewallEventsAdaptive(limit: 100000) { action }')))[0]).toContain(
      'limit must be from 0 to 10000',
    );
  });

  it('refuses a time range beyond the retention window, naming the limit', async () => {
    const old = new Date(f.deps.clock.now().getTime() - 31 * 86_400_000).toISOString();
    const errors = await errorsOf(client, EVENTS, { zoneTag: zone.id, filter: { datetime_geq: old } });
    expect(errors[0]).toMatch(
      /cannot request data older than 2592000s: firewallEventsAdaptive keeps 30 days/,
    );
  });

  it('allows introspection, and bounds what a query may cost', async () => {
    const schema = await client.request<{ __schema: { types: { name: string }[] } }>(getIntrospectionQuery());
    expect(schema.__schema.types.map((t) => t.name)).toContain('ZoneFirewallEventsAdaptiveGroups');

    const nested = '{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }';
    expect((await errorsOf(client, nested))[0]).toMatch(/introspection nests more than 3 lists/);

    const many = Array.from(
      { length: MAX_DATASET_NODES + 1 },
      (_, i) => `a${i}: firewallEventsAdaptive(limit: 1) { action }`,
    ).join(' ');
    const costly = `{ viewer { zones(filter: {zoneTag: "${zone.id}"}) { ${many} } } }`;
    expect((await errorsOf(client, costly))[0]).toMatch(/too costly: 11 dataset nodes, but the limit is 10/);

    const tokens = `{ viewer { ${'a '.repeat(6000)} } }`;
    expect((await errorsOf(client, tokens))[0]).toMatch(/more than 5000 tokens|more that 5000 tokens/);
    const long = `{ viewer { __typename } } # ${'x'.repeat(40_000)}`;
    expect((await errorsOf(client, long))[0]).toBe('query is too long: more than 32768 bytes');
  });

  it('answers a body that is not a GraphQL request with a 400 in the GraphQL shape', async () => {
    // A NUL in the query is refused before the handler (text the database can't store): same shape.
    for (const body of ['{"query": 5}', 'not json', '[]', JSON.stringify({ query: '{ viewer \u0000 }' })]) {
      const res = await fetch(`${f.api}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${f.token}` },
        body,
      });
      expect(res.status, body).toBe(400);
      const json = (await res.json()) as { data: null; errors: { message: string }[] };
      expect(json.data, body).toBeNull();
      expect(json.errors[0]!.message.length, body).toBeGreaterThan(5);
    }
    const nul = await fetch(`${f.api}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${f.token}` },
      body: JSON.stringify({ query: '{ viewer \u0000 }' }),
    });
    const refused = (await nul.json()) as { errors: { message: string }[] };
    expect(refused.errors[0]!.message).toMatch(/^Body field query contains a NUL character/);
  });

  it('never answers 5xx or an internal error, whatever the query text or the filter values', async () => {
    const post = async (body: string) => {
      const res = await fetch(`${f.api}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${f.token}` },
        body,
      });
      const json = (await res.json()) as { errors?: { message: string; extensions?: { code?: string } }[] };
      return { status: res.status, json };
    };
    const hostile = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constantFrom(
        '\u0000',
        '\ud800',
        '%',
        "'; DROP TABLE edge_security_events; --",
        '2026-13-45T99:00:00Z',
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 300 }), async (query) => {
        const { status, json } = await post(JSON.stringify({ query }));
        expect(status).toBeLessThan(500);
        expect(json.errors?.some((e) => e.extensions?.code === 'internal')).not.toBe(true);
      }),
      { numRuns: 60 },
    );
    const keys = EVENT_FIELDS.flatMap((x) => OPERATORS.map((op) => `${x.name}${op}`));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...keys), hostile, fc.boolean(), async (key, value, asList) => {
        const filter = { [key]: asList ? [value] : value };
        const { status, json } = await post(
          JSON.stringify({ query: EVENTS, variables: { zoneTag: zone.id, filter } }),
        );
        expect(status).toBeLessThan(500);
        expect(
          json.errors?.some((e) => e.extensions?.code === 'internal'),
          JSON.stringify(json.errors),
        ).not.toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
