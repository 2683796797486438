import type { FakeClock } from '@cairn/kit';
import { GraphQLClient, gql } from 'graphql-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EdgeRequest } from '../src/engine/request.ts';
import type { RuleEvent } from '../src/engine/verdict.ts';
import { insertEvents } from '../src/events/store.ts';
import { EventRecorder, type Zone } from '../src/index.ts';
import { ATTACKS, deployEdgeRuleset, type ProxyFixture, startProxyFixture } from './proxy-fixture.ts';

// Security Events at volume: rows are a sample once a zone is busy, the counts stay exact (and analytics
// reads them), retention runs as a job once across processes, and a stopping recorder writes what it holds.
let f: ProxyFixture;
let zone: Zone;
let client: GraphQLClient;

beforeAll(async () => {
  f = await startProxyFixture();
  zone = await f.zone('events-volume.example.com', 'enterprise', 'complete');
  await deployEdgeRuleset(f, zone.id);
  client = new GraphQLClient(`${f.api}/graphql`, { headers: { authorization: `Bearer ${f.token}` } });
}, 60_000);
afterAll(() => f?.close());

/** A recorder of its own, like another process's (no timer until started). */
const recorder = (options: Partial<EventRecorder['options']> = {}) =>
  new EventRecorder(
    { ...f.edge.deps, metrics: f.deps.metrics },
    { ...f.edge.recorder.options, flushMs: 60_000, ...options },
  );

let rays = 0;
/** A request as the proxy hands it to the recorder, at the fake clock's time plus `offsetMs`. */
const request = (offsetMs = 0) =>
  ({
    rayId: `${(++rays).toString(16).padStart(16, '0')}`,
    ip: '192.0.2.1',
    method: 'GET',
    host: zone.name,
    httpVersion: '1.1',
    timestamp: f.deps.clock.now().getTime() + offsetMs,
    rawHeaders: ['User-Agent', 'volume-test'],
  }) as unknown as EdgeRequest;

const event = (ruleId: string, action: RuleEvent['action'] = 'block'): RuleEvent => ({
  source: 'firewallCustom',
  action,
  waf: null,
  phase: 'http_request_firewall_custom',
  rulesetId: null,
  ruleId,
  description: `rule ${ruleId}`,
  matchedData: [],
});

const GROUPS = gql`
  query Groups($zoneTag: String!, $filter: ZoneFirewallEventsAdaptiveGroupsFilter_InputObject) {
    viewer {
      zones(filter: { zoneTag: $zoneTag }) {
        byRule: firewallEventsAdaptiveGroups(filter: $filter, limit: 100) {
          count
          dimensions { action ruleId }
        }
        byPath: firewallEventsAdaptiveGroups(filter: $filter, limit: 100) {
          count
          dimensions { clientRequestPath }
        }
      }
    }
  }
`;

interface Group {
  count: number;
  dimensions: Record<string, string>;
}

async function groups(filter: Record<string, unknown>) {
  const data = await client.request<{ viewer: { zones: { byRule: Group[]; byPath: Group[] }[] } }>(GROUPS, {
    zoneTag: zone.id,
    filter,
  });
  return data.viewer.zones[0] as { byRule: Group[]; byPath: Group[] };
}

describe('Security Events at volume', () => {
  it('past the sampling threshold rows are a sample, while the counts analytics reads stay exact', async () => {
    const r = recorder({ sampleAfter: 5, logSampleRate: 0.5, random: sequence() });
    // One second of a busy zone: 300 blocked requests (two rules each) and 40 logged ones.
    for (let i = 0; i < 300; i++) r.record(zone.id, request(), '/attack', 'q=1', [event('a'), event('b')]);
    for (let i = 0; i < 40; i++) r.record(zone.id, request(), '/logged', '', [event('l', 'log')]);
    await r.flush();
    expect(r.counted).toBe(640);
    const { rows } = await f.deps.db.query<{ n: number; weight: number }>(
      'SELECT count(*)::int AS n, sum(sample_interval)::float AS weight FROM edge_security_events WHERE zone_id = $1',
      [zone.id],
    );
    // 5 requests kept in full, then 1 in 2, 1 in 4, … : a few dozen rows, not 640.
    expect(rows[0]!.n).toBeLessThan(80);
    expect(rows[0]!.n + r.sampledOut).toBe(640);
    // The rows stand for about the requests they sample.
    expect(rows[0]!.weight).toBeGreaterThan(400);
    expect(rows[0]!.weight).toBeLessThanOrEqual(640);

    const minute = new Date(Math.floor(f.deps.clock.now().getTime() / 60_000) * 60_000);
    const exact = await groups({ datetime_geq: minute.toISOString() });
    const byRule = Object.fromEntries(
      exact.byRule.map((g) => [`${g.dimensions.action} ${g.dimensions.ruleId}`, g.count]),
    );
    expect(byRule).toEqual({ 'block a': 300, 'block b': 300, 'log l': 40 });
    // A group by a dimension the counts do not keep is estimated from the rows and their intervals.
    const attack = exact.byPath.find((g) => g.dimensions.clientRequestPath === '/attack');
    expect(attack!.count).toBeGreaterThan(400);
    expect(attack!.count).toBeLessThanOrEqual(600);
    // A filter on a field the counts keep is exact too; a datetime bound inside a minute is not countable.
    const onlyA = await groups({ ruleId: 'a', action_in: ['block'] });
    expect(onlyA.byRule).toEqual([{ count: 300, dimensions: { action: 'block', ruleId: 'a' } }]);
  });

  it('the counts of a zone busy in several processes add up', async () => {
    const zone2 = await f.zone('events-volume-2.example.com', 'enterprise', 'complete');
    const [one, two] = [recorder({ sampleAfter: 1 }), recorder({ sampleAfter: 1 })];
    for (let i = 0; i < 100; i++) {
      one.record(zone2.id, request(), '/', '', [event('x')]);
      two.record(zone2.id, request(), '/', '', [event('x')]);
    }
    await Promise.all([one.flush(), two.flush()]);
    const { rows } = await f.deps.db.query<{ n: number }>(
      'SELECT sum(count)::int AS n FROM edge_security_event_counts WHERE zone_id = $1',
      [zone2.id],
    );
    expect(rows[0]!.n).toBe(200);
  });

  it('every blocked request through the proxy is counted, and its events are listed', async () => {
    const before = f.edge.recorder.counted;
    const res = await f.send(zone.name, ATTACKS.xss!.path);
    expect(res.status).toBe(403);
    await f.edge.recorder.flush();
    expect(f.edge.recorder.counted).toBeGreaterThan(before);
    const listed = await f.events(zone.id, `?ray_id=${String(res.headers['cf-ray']).slice(0, 16)}`);
    expect(listed.length).toBe(f.edge.recorder.counted - before);
  });

  it('the retention job deletes old events and counts, and runs once per period whichever process asks', async () => {
    const zone3 = await f.zone('events-retention.example.com', 'enterprise', 'complete');
    const now = f.deps.clock.now().getTime();
    const days = (n: number) => new Date(now - n * 86_400_000);
    const row = (at: Date, rayId: string) => ({
      zoneId: zone3.id,
      occurredAt: at,
      rayId,
      action: 'block',
      source: 'firewallCustom',
      waf: null,
      phase: null,
      rulesetId: null,
      ruleId: 'r',
      description: '',
      clientIp: '192.0.2.1',
      method: 'GET',
      host: zone3.name,
      path: '/',
      query: '',
      userAgent: '',
      httpProtocol: 'HTTP/1.1',
      matchedData: [],
      sampleInterval: 1,
    });
    await insertEvents(f.deps.db, [row(days(40), 'old'), row(days(2), 'recent')]);
    const old = recorder();
    old.record(zone3.id, request(-40 * 86_400_000), '/', '', [event('r')]);
    old.record(zone3.id, request(), '/', '', [event('r')]);
    await old.flush();

    const first = recorder({ retentionDays: 30, pruneEveryMs: 3_600_000 });
    const other = recorder({ retentionDays: 30, pruneEveryMs: 3_600_000 });
    // Another test's job run may be recorded already: start from one that is due.
    await f.deps.db.query(`UPDATE edge_jobs SET last_run = '-infinity'`);
    const [a, b] = await Promise.all([first.prune(), other.prune()]);
    // At most one of the two ran it (the other found it running or done; the fixture's own recorder,
    // whose timer also asks every minute, may have been first).
    expect([a, b].filter((n) => n !== undefined).length).toBeLessThanOrEqual(1);
    expect(await other.prune()).toBeUndefined();
    const { rows: events } = await f.deps.db.query<{ ray_id: string }>(
      'SELECT ray_id FROM edge_security_events WHERE zone_id = $1 ORDER BY ray_id',
      [zone3.id],
    );
    expect(events.map((e) => e.ray_id)).not.toContain('old');
    expect(events.map((e) => e.ray_id)).toContain('recent');
    const { rows: counts } = await f.deps.db.query<{ at: Date }>(
      'SELECT occurred_at AS at FROM edge_security_event_counts WHERE zone_id = $1',
      [zone3.id],
    );
    expect(counts).toHaveLength(1);
    expect(counts[0]!.at.getTime()).toBeGreaterThan(days(1).getTime());
    // Due again a period later.
    (f.deps.clock as FakeClock).advance(3_600_000);
    expect(await other.prune()).toBe(0);
  });

  it('counts the database refused are kept and added with the next flush, merged with newer ones', async () => {
    const zone5 = await f.zone('events-retry.example.com', 'enterprise', 'complete');
    let refuse = true;
    // The real database, but its first write of counts fails (as when the connection drops).
    const db = new Proxy(f.edge.deps.db, {
      get(target, key, receiver) {
        if (key !== 'query') return Reflect.get(target, key, receiver);
        return (sql: string, ...rest: unknown[]) => {
          if (refuse && sql.includes('INSERT INTO edge_security_event_counts')) {
            refuse = false;
            return Promise.reject(new Error('connection lost'));
          }
          return (target.query as (...args: unknown[]) => unknown)(sql, ...rest);
        };
      },
    });
    const r = new EventRecorder(
      { ...f.edge.deps, db, metrics: f.deps.metrics },
      { ...f.edge.recorder.options, flushMs: 60_000 },
    );
    for (let i = 0; i < 7; i++) r.record(zone5.id, request(), '/', '', [event('p'), event('q', 'log')]);
    await r.flush();
    for (let i = 0; i < 5; i++) r.record(zone5.id, request(), '/', '', [event('p')]);
    await r.flush();
    const { rows } = await f.deps.db.query<{ rule_id: string; action: string; n: number }>(
      `SELECT rule_id, action, sum(count)::int AS n FROM edge_security_event_counts WHERE zone_id = $1
        GROUP BY rule_id, action ORDER BY rule_id`,
      [zone5.id],
    );
    expect(refuse).toBe(false);
    expect(rows).toEqual([
      { rule_id: 'p', action: 'block', n: 12 },
      { rule_id: 'q', action: 'log', n: 7 },
    ]);
  });

  it('stopping the recorder writes the events and counts it holds', async () => {
    const zone4 = await f.zone('events-stop.example.com', 'enterprise', 'complete');
    const r = recorder({ flushMs: 3_600_000 });
    r.start();
    for (let i = 0; i < 30; i++) r.record(zone4.id, request(), '/', '', [event('s')]);
    await r.stop();
    const { rows } = await f.deps.db.query<{ rows: number; counted: number }>(
      `SELECT (SELECT count(*)::int FROM edge_security_events WHERE zone_id = $1) AS rows,
              (SELECT sum(count)::int FROM edge_security_event_counts WHERE zone_id = $1) AS counted`,
      [zone4.id],
    );
    expect(rows[0]).toEqual({ rows: 30 - r.sampledOut, counted: 30 });
    expect(rows[0]!.rows).toBeGreaterThan(0);
  });
});

/** A repeatable "random": 0, 0.25, 0.5, 0.75, 0, … (so half the log events pass a 0.5 rate). */
function sequence(): () => number {
  let i = 0;
  return () => (i++ % 4) / 4;
}
