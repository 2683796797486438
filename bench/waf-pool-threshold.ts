// Where the edge's CRS worker pool pays (EDGE_WAF_POOL_THRESHOLD): for benign requests and attacks of
// growing size, the event loop's CPU per request when the CRS runs inline (Waf.evaluate) against when it
// runs on a worker (what the engine's thread still does: copy the body, post the request, take the
// answer), both on this thread's CPU clock (other processes' load does not count), and the pool's wall
// round trip. PL1, the engine's profile format, one worker.
//
// Run: npx tsx bench/waf-pool-threshold.ts [--rounds N, default 200]

import { cpus, loadavg } from 'node:os';
import { cpuMicros } from '../packages/seclang/src/engine/budget.ts';
import { loadCrsSync, type WafRequest } from '../packages/seclang/src/index.ts';
import { attacks, place } from '../packages/seclang/test/redos/cases.ts';
import { CrsPool } from '../services/edge/src/engine/pool/crs-pool.ts';
import type { PooledRequest } from '../services/edge/src/engine/pool/protocol.ts';

const i = process.argv.indexOf('--rounds');
const rounds = i > 0 ? Number(process.argv[i + 1]) : 200;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const CRS_DIR = process.env.CAIRN_CRS_DIR || '/usr/share/modsecurity-crs';

const HEADERS: Array<[string, string]> = [
  ['Host', 'shop.example.com'],
  ['User-Agent', 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'],
  ['Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
  ['Accept-Language', 'en-US,en;q=0.5'],
  ['Cookie', 'session=3f9a1c27b8e44d6a9c0e; theme=dark'],
];

function form(bytes: number): WafRequest {
  const fields: string[] = [];
  for (let n = 0; fields.join('&').length < bytes; n++) fields.push(`field${n}=some+ordinary+text+${n}`);
  const body = fields.join('&');
  return {
    method: 'POST',
    uri: '/contact',
    httpVersion: '1.1',
    headers: [...HEADERS, ['Content-Type', 'application/x-www-form-urlencoded']],
    body: Buffer.from(body),
  };
}

function json(bytes: number): WafRequest {
  const items: unknown[] = [];
  while (JSON.stringify({ items }).length < bytes)
    items.push({ sku: `TENT-${items.length}`, qty: 1, note: 'leave at the door' });
  return {
    method: 'POST',
    uri: '/api/orders',
    httpVersion: '1.1',
    headers: [...HEADERS, ['Content-Type', 'application/json']],
    body: Buffer.from(JSON.stringify({ items })),
  };
}

const issue13 = attacks().find((a) => a.target === '941160 (issue 13)');
if (!issue13) throw new Error('no 941160 attack in the ReDoS suite');

const cases: Array<{ name: string; request: WafRequest }> = [
  { name: 'benign GET', request: { method: 'GET', uri: '/catalog/tents?page=2', headers: HEADERS } },
];
for (const size of [1024, 4096, 16_384, 65_536]) {
  cases.push({ name: `benign form ${size / 1024} KB`, request: form(size) });
  cases.push({ name: `benign JSON ${size / 1024} KB`, request: json(size) });
  cases.push({
    name: `941160 multipart ${size / 1024} KB`,
    request: place(issue13, 'multipart', size).request,
  });
}

function pooled(r: WafRequest): PooledRequest {
  return {
    method: r.method,
    uri: r.uri,
    uriRaw: r.uri,
    httpVersion: '1.1',
    headers: r.headers.map(([k, v]) => [k, v]),
    remoteAddr: '203.0.113.9',
    ...(r.body ? { body: new Uint8Array(r.body as Buffer) } : {}),
  };
}

const profile = { paranoiaLevel: 1 as const, disabledRules: [], ruleActions: {} };
const options = { crsDir: CRS_DIR, bodyLimit: 131_072, maxEngines: 2, timeBudgetMs: 60_000 };
const waf = loadCrsSync({ crsDir: CRS_DIR, paranoiaLevel: 1, timeBudgetMs: 60_000 });
const pool = new CrsPool({ workers: 1, maxQueue: 16, engines: options, onProblem: (m) => console.log(m) });
pool.warm([profile]);
await pool.evaluate(profile, pooled(cases[0]!.request)); // starts the worker and loads its CRS

console.log(
  `npx tsx bench/waf-pool-threshold.ts --rounds ${rounds}: ${cpus().length} cores, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; CPU of this thread (the event loop) per request, µs; the pool's round trip, median µs`,
);
console.log(
  `${'case'.padEnd(26)} ${'bytes'.padStart(7)} ${'inline CPU'.padStart(11)} ${'pool CPU'.padStart(9)} ${'pool wall'.padStart(10)}`,
);
for (const c of cases) {
  // the thread's CPU clock is read as of the scheduler's last tick (1–4 ms stale): timed over whole
  // loops of `rounds` requests, not per request
  let t = cpuMicros();
  for (let r = 0; r < rounds; r++) waf.evaluate(c.request);
  const inline = (cpuMicros() - t) / rounds;
  // the clock does not run while the event loop waits for the worker: what it counts over the round
  // trips is the copy, the post and the answer's structured clone
  const wall: number[] = [];
  t = cpuMicros();
  for (let r = 0; r < rounds; r++) {
    const started = performance.now();
    await pool.evaluate(profile, pooled(c.request));
    wall.push((performance.now() - started) * 1000);
  }
  const viaPool = (cpuMicros() - t) / rounds;
  const bytes = (c.request.body?.length ?? 0) + c.request.uri.length;
  console.log(
    `${c.name.padEnd(26)} ${String(bytes).padStart(7)} ${inline.toFixed(0).padStart(11)} ${viaPool.toFixed(0).padStart(9)} ${median(wall).toFixed(0).padStart(10)}`,
  );
}
await pool.close();
