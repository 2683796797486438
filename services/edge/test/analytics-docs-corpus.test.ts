import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Zone } from '../src/index.ts';
import { ATTACKS, deployEdgeRuleset, type ProxyFixture, startProxyFixture } from './proxy-fixture.ts';

// The GraphQL Analytics queries of the real documentation and its tutorials, as written there
// (testdata/graphql-docs/*.graphql, each naming its page), run unchanged against events the proxy
// recorded. Only what the documentation tells its reader to replace is replaced: the zone tag and the
// dates (a documented 2020 date is older than the retention).

const DIR = join(import.meta.dirname, 'testdata/graphql-docs');
const ZONE_PLACEHOLDERS = new Set([
  '<CLOUDFLARE_ZONE_TAG>',
  'CLOUDFLARE_ZONE_ID',
  'CIS_DOMAIN_ID',
  '$CIS_DOMAIN_ID',
  '<zone-tag>',
  '$ZoneID',
]);
const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g;

interface DocQuery {
  file: string;
  source: string;
  query: string;
  variables: Record<string, unknown> | undefined;
  /** A zone tag written into the query itself. */
  zoneLiteral: string | undefined;
}

function header(text: string, name: string): string | undefined {
  return new RegExp(`^# ${name}: (.*)$`, 'm').exec(text)?.[1];
}

const load = (dir: string): DocQuery[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((file) => {
      const query = readFileSync(join(dir, file), 'utf8');
      const variables = header(query, 'variables');
      return {
        file,
        source: header(query, 'source') ?? '',
        query,
        variables: variables === undefined ? undefined : (JSON.parse(variables) as Record<string, unknown>),
        zoneLiteral: header(query, 'zone-tag-literal'),
      };
    });

/** The documented queries that read only what Cairn records: they must run as written. */
const corpus = load(DIR);
/** Documented queries that also read an HTTP request dataset, which Cairn does not record. */
const needsHttpRequests = load(join(DIR, 'needs-http-requests'));

let f: ProxyFixture;
let zone: Zone;
let since: string;
let until: string;

/** The documented dates, earliest first, become the last hour; the zone placeholders become the zone. */
function substituted(doc: DocQuery): { query: string; variables?: Record<string, unknown> } {
  const vars = doc.variables === undefined ? '' : JSON.stringify(doc.variables);
  const times = [...new Set([...doc.query.matchAll(TIME), ...vars.matchAll(TIME)].map((m) => m[0]))].sort();
  const time = (t: string) => (t === times[0] ? since : until);
  let query = doc.query.replace(TIME, time);
  if (doc.zoneLiteral) query = query.replaceAll(`"${doc.zoneLiteral}"`, `"${zone.id}"`);
  if (doc.variables === undefined) return { query };
  // A shell script's start and end variables stand for its dates.
  const dated: Record<string, string> = { $start_date: since, $end_date: until };
  const variables = JSON.parse(vars.replace(TIME, time), (_key, value) =>
    typeof value !== 'string' ? value : ZONE_PLACEHOLDERS.has(value) ? zone.id : (dated[value] ?? value),
  ) as Record<string, unknown>;
  return { query, variables };
}

async function run(doc: DocQuery) {
  const res = await fetch(`${f.api}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${f.token}` },
    body: JSON.stringify(substituted(doc)),
  });
  expect(res.status, doc.file).toBe(200);
  return (await res.json()) as { data: Record<string, unknown> | null; errors?: { message: string }[] };
}

beforeAll(async () => {
  f = await startProxyFixture();
  zone = await f.zone('docs.example.com', 'enterprise', 'complete');
  since = new Date(f.deps.clock.now().getTime() - 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
  until = new Date(f.deps.clock.now().getTime() + 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
  await deployEdgeRuleset(f, zone.id);
  for (const name of ['xss', 'traversal', 'shellshock'] as const) {
    const attack = ATTACKS[name]!;
    expect((await f.send(zone.name, attack.path, attack)).status, name).toBe(403);
  }
  await f.edge.recorder.flush();
}, 120_000);
afterAll(() => f?.close());

type Zones = { viewer: { zones: Record<string, unknown>[] } };

describe('the documented GraphQL Analytics queries', () => {
  it('are documented queries, each naming its source page', () => {
    expect(corpus.length).toBe(9);
    expect(needsHttpRequests.length).toBe(3);
    for (const doc of [...corpus, ...needsHttpRequests]) expect(doc.source, doc.file).toMatch(/^https:\/\//);
  });

  it.each(corpus.map((doc) => [doc.file, doc] as const))(
    '%s runs unchanged, without errors',
    async (_file, doc) => {
      const answer = await run(doc);
      expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
      expect(answer.data).not.toBeNull();
    },
  );

  it.each(needsHttpRequests.map((doc) => [doc.file, doc] as const))(
    '%s fails only on the HTTP request dataset it also reads',
    async (_file, doc) => {
      const answer = await run(doc);
      expect(answer.errors?.length).toBeGreaterThan(0);
      for (const e of answer.errors ?? []) {
        expect(e.message).toMatch(
          /^Cannot query field "httpRequests(AdaptiveGroups|1mGroups|1hGroups)" on type "zone"/,
        );
      }
    },
  );

  it('lists the recorded events with the fields the tutorial asks for', async () => {
    const doc = corpus.find((d) => d.file === 'cf-tutorial-list-firewall-events.graphql')!;
    const rows = ((await run(doc)).data as Zones).viewer.zones[0]!.firewallEventsAdaptive as Record<
      string,
      unknown
    >[];
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).toMatchObject({ action: 'block', clientIP: '127.0.0.1', source: 'firewallManaged' });
      // A loopback client has no country or AS in the IP databases.
      expect(row).toMatchObject({ clientAsn: '', clientCountryName: '' });
    }
    expect(rows.map((r) => r.clientRequestPath).sort()).toEqual(['/cgi-bin/status', '/files', '/search']);
  });

  it('counts the events by country and quarter hour for the groups example', async () => {
    const doc = corpus.find((d) => d.file === 'ibm-cis-firewall-event-groups.graphql')!;
    const groups = ((await run(doc)).data as Zones).viewer.zones[0]!.firewallEventsAdaptiveGroups as {
      count: number;
      dimensions: { clientCountryName: string; datetimeFifteenMinutes: string };
    }[];
    expect(groups.reduce((n, g) => n + g.count, 0)).toBe(3);
    expect(groups.every((g) => /:(00|15|30|45):00Z$/.test(g.dimensions.datetimeFifteenMinutes))).toBe(true);
  });

  it('answers the settings node with this server limits', async () => {
    const doc = corpus.find((d) => d.file === 'cf-settings-node.graphql')!;
    const settings = ((await run(doc)).data as Zones).viewer.zones[0]!.settings;
    expect(settings).toEqual({
      firewallEventsAdaptive: {
        enabled: true,
        maxDuration: 2_592_000,
        maxNumberOfFields: 500,
        maxPageSize: 10_000,
        notOlderThan: 2_592_000,
      },
    });
  });
});
