import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpus, setPriority } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EDGE_RULESET,
  OWASP_RULESET,
  type ProxyFixture,
  paranoia,
  startProxyFixture,
} from './proxy-fixture.ts';

// The WAF's budget counts the CPU time an evaluation used, never wall-clock time: on a starved machine
// a request waits longer but costs no more, so load must never turn benign traffic into a 403 or 503.
// A tight budget (10 ms; a benign request costs well under 1 ms of CPU at PL1) and busy processes at a
// higher priority than this one make every evaluation take far longer than 10 ms of wall-clock time.
// This process and its hogs are pinned to one core (taskset), so the test files running beside this one
// on the other cores are not starved with it.
const BUDGET_MS = 10;
let f: ProxyFixture;
const hogs: ChildProcess[] = [];
const core = String(cpus().length - 1);
const allCores = `0-${core}`;

beforeAll(async () => {
  f = await startProxyFixture({ EDGE_WAF_TIME_BUDGET_MS: String(BUDGET_MS) });
}, 60_000);
afterAll(async () => {
  for (const hog of hogs) hog.kill('SIGKILL');
  spawnSync('taskset', ['-a', '-p', '-c', allCores, String(process.pid)], { stdio: 'ignore' });
  await f?.close();
});

/** Pins this process (every thread) to one core and starts three busy processes there. */
function starveThisCore(): void {
  const pinned = spawnSync('taskset', ['-a', '-p', '-c', core, String(process.pid)], { stdio: 'ignore' });
  const pin = pinned.status === 0 ? ['taskset', '-c', core] : [];
  for (let i = 0; i < (pin.length ? 3 : cpus().length * 2); i++) {
    const [command, ...args] = [...pin, process.execPath, '-e', 'for (;;) {}'];
    const hog = spawn(command!, args, { stdio: 'ignore' });
    hogs.push(hog);
    try {
      if (hog.pid) setPriority(hog.pid, -10);
    } catch {
      // Not permitted (not root): the hogs still share the core with this process.
    }
  }
}

const BENIGN: Array<{ path: string; method?: 'POST'; headers?: Record<string, string>; body?: string }> = [
  { path: '/' },
  { path: '/products?page=2&sort=price' },
  { path: '/search?q=hiking+boots' },
  {
    path: '/contact',
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'name=Ada+Lovelace&message=Hello%2C+I+would+like+a+quote+for+two+tents.',
  },
  {
    path: '/api/orders',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ items: [{ sku: 'TENT-2', qty: 1 }], note: 'leave at the door' }),
  },
];

describe('the WAF on a starved machine', () => {
  it('blocks no benign request while busy processes hold its core', async () => {
    const zone = await f.zone('starved.example.com', 'enterprise', 'complete');
    await f.changed(zone.id, async () => {
      const rules = [EDGE_RULESET, OWASP_RULESET].map((id) => ({
        action: 'execute',
        expression: 'true',
        action_parameters: {
          id,
          ...(id === OWASP_RULESET ? { overrides: { categories: paranoia(1) } } : {}),
        },
      }));
      const res = await f.call(
        'PUT',
        `/zones/${zone.id}/rulesets/phases/http_request_firewall_managed/entrypoint`,
        {
          rules,
        },
      );
      expect(res.status, res.text).toBe(200);
    });
    const attack = await f.send(
      'starved.example.com',
      "/?id=1'%20union%20select%20password%20from%20users--",
    );
    expect(attack.status).toBe(403);

    starveThisCore();
    const statuses: string[] = [];
    const wallMs: number[] = [];
    for (let round = 0; round < 4; round++) {
      for (const req of BENIGN) {
        const started = performance.now();
        const res = await f.send('starved.example.com', req.path, {
          ...(req.method ? { method: req.method } : {}),
          headers: { accept: '*/*', ...req.headers },
          ...(req.body ? { body: req.body } : {}),
        });
        wallMs.push(performance.now() - started);
        statuses.push(`${req.path} ${res.status}`);
      }
    }
    // The machine was starved indeed: most requests took longer than the budget in wall-clock time.
    wallMs.sort((a, b) => a - b);
    expect(wallMs[Math.floor(wallMs.length / 2)]).toBeGreaterThan(BUDGET_MS);
    expect(statuses.filter((s) => !s.endsWith(' 200'))).toEqual([]);
    const blocks = await f.events(zone.id, '?action=block');
    expect(blocks.filter((e) => !String(e.query ?? '').includes('union')).map((e) => e.description)).toEqual(
      [],
    );
  }, 120_000);
});
