// The CRS 3.3.4 regression corpus through the real edge proxy, in the style of go-ftw: each test's
// request, byte for byte as go-ftw sends it, is written on a raw socket to the proxy; the zone deploys the
// OWASP Core Ruleset at the paranoia level of the test's rule, every rule overridden to `log` so each match
// is a Security Event (as go-ftw reads the server's log); the test's status and rule ids are checked.
// As go-ftw's `testoverride` does for a server, the runner sets the corpus's default `Host: localhost` to
// the zone's host (the proxy routes by Host; a one-label host is no zone). Tests that cannot apply are in
// overrides.yaml with their reasons.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FtwTest, loadCorpus } from '@cairn/seclang/crs-regression/ftw';
import { corpusDir, loadSkips } from '@cairn/seclang/crs-regression/runner';
import type { Zone } from '../../src/index.ts';
import { OWASP_RULESET, type ProxyFixture } from '../proxy-fixture.ts';
import { openSocket } from '../raw-http.ts';

const here = dirname(fileURLToPath(import.meta.url));
export const ZONE_HOST = 'crs.example.test';
/** The corpus's tests that name another host send it as is; the zones below serve them too. */
export const OTHER_HOSTS = ['example.com'];

export interface ProxyOutcome {
  test: FtwTest;
  passed: boolean;
  status: number;
  ids: number[];
  reason?: string;
}

export interface ProxyReport {
  total: number;
  skipped: Array<{ title: string; reason: string }>;
  run: number;
  passed: number;
  failures: ProxyOutcome[];
}

/** `Host: localhost` (any case, first occurrence in the head) → the zone's host; nothing else changes. */
export function routedToZone(wire: Buffer): Buffer {
  const text = wire.toString('latin1');
  const headEnd = text.indexOf('\r\n\r\n');
  const head = headEnd < 0 ? text : text.slice(0, headEnd);
  const replaced = head.replace(/\r\nhost:[ \t]*localhost[ \t]*(?=\r\n|$)/i, `\r\nHost: ${ZONE_HOST}`);
  return Buffer.from(replaced + text.slice(head.length), 'latin1');
}

/** Writes the bytes and reads the first answer (or until the proxy closes, or 5 s pass). */
async function send(f: ProxyFixture, bytes: Buffer): Promise<{ status: number; ray: string }> {
  const socket = await openSocket(f.proxy.address);
  return new Promise((resolve) => {
    let text = '';
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      const ray = /\r\ncf-ray: ([0-9a-f]{16})/i.exec(text)?.[1] ?? '';
      resolve({ status, ray });
    };
    const timer = setTimeout(finish, 5_000);
    socket.on('data', (c: Buffer) => {
      text += c.toString('latin1');
      if (complete(text)) finish();
    });
    socket.on('error', finish);
    socket.on('close', finish);
    socket.write(bytes);
  });
}

function complete(text: string): boolean {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const head = text.slice(0, end);
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  if (length) return text.length - end - 4 >= Number(length[1]);
  if (/\r\ntransfer-encoding: *chunked/i.test(head)) return text.endsWith('0\r\n\r\n');
  return false;
}

/** Every OWASP rule up to `pl` enabled and set to log; the levels above off. */
async function deployParanoia(f: ProxyFixture, zone: Zone, pl: number): Promise<void> {
  const categories = [1, 2, 3, 4].map((n) =>
    n <= pl
      ? { category: `paranoia-level-${n}`, action: 'log' }
      : { category: `paranoia-level-${n}`, enabled: false },
  );
  await f.changed(zone.id, async () => {
    const res = await f.call(
      'PUT',
      `/zones/${zone.id}/rulesets/phases/http_request_firewall_managed/entrypoint`,
      {
        rules: [
          {
            action: 'execute',
            expression: 'true',
            action_parameters: { id: OWASP_RULESET, overrides: { categories } },
          },
        ],
      },
    );
    if (res.status !== 200) throw new Error(`deploying PL${pl}: ${res.text}`);
  });
  // compiled now (the level's CRS engine loads: seconds on a loaded machine), not by the first test's
  // request, which the runner waits 5 s for
  await f.edge.engine.planFor(zone.id);
}

/** The CRS rule ids each ray's Security Events name. */
async function loggedIds(f: ProxyFixture): Promise<Map<string, number[]>> {
  await f.edge.recorder.flush();
  const rows = await f.deps.db.query<{ ray_id: string; matched_data: unknown }>(
    'SELECT ray_id, matched_data FROM edge_security_events',
  );
  const out = new Map<string, number[]>();
  for (const row of rows.rows) {
    const data = (
      typeof row.matched_data === 'string' ? JSON.parse(row.matched_data) : row.matched_data
    ) as Array<{
      ruleId?: string;
    }>;
    const ids = out.get(row.ray_id) ?? [];
    for (const d of data ?? []) if (d.ruleId) ids.push(Number(d.ruleId));
    out.set(row.ray_id, ids);
  }
  return out;
}

/**
 * Runs the corpus (or the tests `pick` keeps) through the proxy of `f`, one paranoia level at a time.
 * `zones`: those of `ZONE_HOST` and `OTHER_HOSTS`.
 */
export async function runCorpusThroughProxy(
  f: ProxyFixture,
  zones: Zone[],
  pick: (test: FtwTest, index: number) => boolean = () => true,
): Promise<ProxyReport> {
  const skips = loadSkips(join(here, 'overrides.yaml'));
  const corpus = loadCorpus(corpusDir());
  const levels = new Map(f.edge.deps.catalogue.crsCatalogue().rules.map((r) => [r.crsId, r.paranoiaLevel]));
  const report: ProxyReport = { total: corpus.length, skipped: [], run: 0, passed: 0, failures: [] };
  const byLevel = new Map<number, FtwTest[]>();
  corpus.forEach((test, i) => {
    const skip = skips.get(test.title);
    if (skip !== undefined) {
      report.skipped.push({ title: test.title, reason: skip });
      return;
    }
    if (!pick(test, i)) return;
    const only = process.env.CRS_PROXY_ONLY?.split(',');
    if (only && !only.includes(test.title)) return;
    const rule = Number(/(\d{6})\.yaml$/.exec(test.file)?.[1]);
    const pl = levels.get(rule) ?? 1;
    byLevel.set(pl, [...(byLevel.get(pl) ?? []), test]);
  });
  for (const pl of [...byLevel.keys()].sort()) {
    for (const zone of zones) await deployParanoia(f, zone, pl);
    const sent: Array<{ test: FtwTest; status: number; ray: string }> = [];
    for (const test of byLevel.get(pl) ?? [])
      sent.push({ test, ...(await send(f, routedToZone(test.wire))) });
    const logged = await loggedIds(f);
    for (const { test, status, ray } of sent) {
      report.run++;
      const ids = logged.get(ray) ?? [];
      const reasons: string[] = [];
      if (test.status !== undefined && !test.status.includes(status))
        reasons.push(`status ${status}, expected ${test.status.join(' or ')}`);
      if (test.logContains !== undefined && !ids.includes(test.logContains))
        reasons.push(`expected ${test.logContains}`);
      if (test.noLogContains !== undefined && ids.includes(test.noLogContains))
        reasons.push(`unexpected ${test.noLogContains}`);
      // go-ftw's expect_error: no answer (the connection closed or the 5 s wait ran out)
      if (test.expectError && status !== 0) reasons.push(`expects a connection error, answered ${status}`);
      if (reasons.length === 0) report.passed++;
      else
        report.failures.push({
          test,
          passed: false,
          status,
          ids,
          reason: `PL${pl}, answered ${status}: ${reasons.join('; ')}`,
        });
    }
  }
  return report;
}
