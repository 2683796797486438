import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EdgeRequest } from '../src/engine/request.ts';
import type { RuleEvent } from '../src/engine/verdict.ts';
import { geoDatabase, type Zone } from '../src/index.ts';
import { ATTACKS, deployEdgeRuleset, type ProxyFixture, startProxyFixture } from './proxy-fixture.ts';

// The fields a firewall-events user reaches for (country and AS from the IP databases the dashboard uses,
// the Referer's host, match index, statuses), the account scope, the groups' avg block and the loose
// variable types of the real API, over events the proxy and its recorder stored.

let f: ProxyFixture;
let zone: Zone;
let second: Zone;
let since: string;

type Row = Record<string, unknown>;
interface Answer {
  data: { viewer: { zones: Record<string, Row[] & Row>[]; accounts: Record<string, Row[]>[] } };
  errors?: { message: string }[];
}

async function gql(query: string, variables?: Record<string, unknown>, token = f.token) {
  const res = await fetch(`${f.api}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
}

const ruleEvent = (ruleId: string): RuleEvent => ({
  source: 'firewallManaged',
  action: 'block',
  waf: 'new',
  phase: 'http_request_firewall_managed',
  rulesetId: 'efb7b8c949ac4650a09736fc376e9aee',
  ruleId,
  description: `rule ${ruleId}`,
  matchedData: [],
});

/** A request from a public address, as the proxy hands it to the recorder. */
function fromAddress(ip: string, rayId: string): EdgeRequest {
  return {
    method: 'GET',
    url: '/login',
    rawUrl: '/login',
    httpVersion: '1.1',
    rawHeaders: ['Host', second.name, 'User-Agent', 'probe/1.0', 'Referer', 'https://Evil.Example:8443/x?y'],
    ip,
    host: second.name,
    scheme: 'https',
    port: 443,
    bodyTruncated: false,
    rayId,
    timestamp: f.deps.clock.now().getTime(),
    zone: { name: second.name, plan: 'enterprise' },
  };
}

beforeAll(async () => {
  f = await startProxyFixture();
  zone = await f.zone('fields.example.com', 'enterprise', 'complete');
  second = await f.zone('second.example.com', 'enterprise', 'complete');
  since = new Date(f.deps.clock.now().getTime() - 3_600_000).toISOString();
  await deployEdgeRuleset(f, zone.id);
  const xss = ATTACKS.xss!;
  const referred = { ...xss, headers: { referer: 'https://www.Example.org/page' } };
  expect((await f.send(zone.name, xss.path, referred)).status).toBe(403);
  // Two rules matched one request from 8.8.8.8, one from 1.1.1.1: recorded as the proxy records them.
  f.edge.recorder.record(second.id, fromAddress('8.8.8.8', 'aaaa000000000001'), '/login', '', [
    ruleEvent('r1'),
    ruleEvent('r2'),
  ]);
  f.edge.recorder.record(second.id, fromAddress('1.1.1.1', 'aaaa000000000002'), '/login', '', [
    ruleEvent('r1'),
  ]);
  await f.edge.recorder.flush();
}, 120_000);
afterAll(() => f?.close());

describe('firewall event fields', () => {
  it('fills country and AS from the IP databases, as the dashboard reads them', async () => {
    const { data, errors } = await gql(
      `query ($zoneTag: string, $since: Time) { viewer { zones(filter: {zoneTag: $zoneTag}) {
        firewallEventsAdaptive(filter: {datetime_geq: $since}, limit: 10, orderBy: [clientIP_ASC, matchIndex_ASC]) {
          clientIP clientCountryName clientAsn clientASNDescription clientRefererHost matchIndex rayName
        } } } }`,
      { zoneTag: second.id, since },
    );
    expect(errors).toBeUndefined();
    const rows = data.viewer.zones[0]!.firewallEventsAdaptive!;
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      const geo = geoDatabase().lookup(row.clientIP as string)!;
      expect(geo.country, String(row.clientIP)).toMatch(/^[A-Z]{2}$/);
      expect(row).toMatchObject({
        clientCountryName: geo.country,
        clientAsn: String(geo.asnum),
        clientASNDescription: geo.asName,
        clientRefererHost: 'evil.example',
      });
      expect(String(row.clientASNDescription).length).toBeGreaterThan(2);
    }
    expect(rows.map((r) => r.matchIndex)).toEqual([0, 0, 1]);
  });

  it('filters and groups by country and AS', async () => {
    const us = geoDatabase().lookup('8.8.8.8')!;
    const { data, errors } = await gql(
      `{ viewer { zones(filter: {zoneTag: "${second.id}"}) {
        byCountry: firewallEventsAdaptiveGroups(filter: {datetime_geq: "${since}"}, limit: 10, orderBy: [count_DESC]) {
          count avg { sampleInterval } dimensions { clientCountryName clientAsn clientASNDescription }
        }
        one: firewallEventsAdaptive(filter: {clientCountryName: "${us.country}", clientAsn_in: ["${us.asnum}"]}, limit: 10) {
          clientIP
        } } } }`,
    );
    expect(errors).toBeUndefined();
    const z = data.viewer.zones[0]!;
    expect(z.one!.map((r) => r.clientIP)).toEqual(['8.8.8.8', '8.8.8.8']);
    expect(z.byCountry![0]).toEqual({
      count: 2,
      avg: { sampleInterval: 1 },
      dimensions: {
        clientCountryName: us.country,
        clientAsn: String(us.asnum),
        clientASNDescription: us.asName,
      },
    });
  });

  it('says what the edge did: statuses, colo, kind, sample interval, Referer host', async () => {
    const { data, errors } = await gql(
      `query ($zoneTag: string) { viewer { zones(filter: {zoneTag: $zoneTag}) {
        firewallEventsAdaptive(limit: 1) {
          clientRefererHost edgeColoName edgeResponseStatus originResponseStatus httpApplicationVersion kind
          sampleInterval clientRequestHTTPMethodName clientRequestHTTPHost ruleId rulesetId source
        } } } }`,
      { zoneTag: zone.id },
    );
    expect(errors).toBeUndefined();
    expect(data.viewer.zones[0]!.firewallEventsAdaptive![0]).toMatchObject({
      clientRefererHost: 'www.example.org',
      edgeColoName: 'CRN',
      edgeResponseStatus: 403,
      originResponseStatus: 0,
      kind: 'firewall',
      sampleInterval: 1,
      clientRequestHTTPMethodName: 'GET',
      clientRequestHTTPHost: zone.name,
      source: 'firewallManaged',
    });
  });
});

describe('viewer.accounts', () => {
  it('reads the account datasets over every zone the token may read', async () => {
    const { data, errors } = await gql(
      `query ($accountTag: string!, $filter: AccountFirewallEventsAdaptiveGroupsFilter_InputObject) {
        viewer { accounts(filter: {accountTag: $accountTag}) {
          firewallEventsAdaptiveGroups(filter: $filter, limit: 10, orderBy: [count_DESC]) {
            count dimensions { clientRequestHTTPHost }
          }
          firewallEventsAdaptive(filter: $filter, limit: 10, orderBy: [datetime_DESC]) { clientRequestHTTPHost }
        } } }`,
      { accountTag: f.accountId, filter: { datetime_geq: since } },
    );
    expect(errors).toBeUndefined();
    const account = data.viewer.accounts[0]!;
    expect(account.firewallEventsAdaptiveGroups).toEqual([
      { count: 3, dimensions: { clientRequestHTTPHost: second.name } },
      { count: 1, dimensions: { clientRequestHTTPHost: zone.name } },
    ]);
    expect(account.firewallEventsAdaptive).toHaveLength(4);
  });

  it('reads only the zones a token may read, and only its own account', async () => {
    const onlyFirst = await f.makeToken([zone.id], ['firewall:read']);
    const q = `{ viewer { accounts(filter: {accountTag: "${f.accountId}"}) {
      firewallEventsAdaptive(limit: 10) { clientRequestHTTPHost } } } }`;
    const mine = await gql(q, undefined, onlyFirst);
    expect(mine.errors).toBeUndefined();
    expect(mine.data.viewer.accounts[0]!.firewallEventsAdaptive).toEqual([
      { clientRequestHTTPHost: zone.name },
    ]);
    const other = await gql(
      `{ viewer { accounts(filter: {accountTag: "${'f'.repeat(32)}"}) { accountTag } } }`,
    );
    expect(other.errors?.[0]?.message).toMatch(/no access/);
  });
});

describe('the real schema names', () => {
  it('takes the lower-case scalars and the documented input names where GraphQL would want others', async () => {
    const q = `query ($zoneTag: String!, $filter: FirewallEventsAdaptiveGroupsFilter_InputObject) {
      viewer { zones(filter: {zoneTag: $zoneTag}) { firewallEventsAdaptive(filter: $filter, limit: 1) { action } } } }`;
    expect((await gql(q, { zoneTag: zone.id, filter: { datetime_geq: since } })).errors).toBeUndefined();
  });

  it('still refuses a variable of another type, and an undeclared variable without a value', async () => {
    const wrong = await gql(
      `query ($zoneTag: uint32) { viewer { zones(filter: {zoneTag: $zoneTag}) { zoneTag } } }`,
      { zoneTag: 5 },
    );
    expect(wrong.errors?.[0]?.message).toMatch(
      /Variable "\$zoneTag" of type "uint32" used in position expecting type "string"/,
    );
    const missing = await gql(`{ viewer { zones(filter: {zoneTag: $nowhere}) { zoneTag } } }`, { other: 1 });
    expect(missing.errors?.[0]?.message).toMatch(/Variable "\$nowhere" is not defined/);
    const badScalar = await gql(
      `{ viewer { zones(filter: {zoneTag: "${zone.id}"}) { firewallEventsAdaptive(limit: 1, filter: {edgeResponseStatus: -1}) { action } } } }`,
    );
    expect(badScalar.errors?.[0]?.message).toMatch(/uint16 must be an integer from 0 to 65535/);
  });

  it('never answers 5xx or an internal error, whatever JSON an undeclared variable carries', async () => {
    const q = `{ viewer { zones(filter: {zoneTag: $z}) { firewallEventsAdaptive(limit: 1, filter: $f, orderBy: $o) { action } } } }`;
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue({ maxDepth: 4 }),
        fc.jsonValue({ maxDepth: 2 }),
        async (filter, order) => {
          const res = await fetch(`${f.api}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${f.token}` },
            body: JSON.stringify({ query: q, variables: { z: zone.id, f: filter, o: order } }),
          });
          expect(res.status).toBeLessThan(500);
          const json = (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
          expect(json.errors?.some((e) => e.extensions?.code === 'internal')).not.toBe(true);
        },
      ),
      { numRuns: 80 },
    );
  });
});
