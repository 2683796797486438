// Benchmark: does one slow request starve the others? Benign browser GETs go through the edge proxy to
// two zones (WAF off, and the previous WAF on the CRS), first alone, then while 20 adversarial requests
// a second go to a third zone (the new WAF at PL1): issue 13's 941160 input as a 128 KB multipart
// field, the worst case of bench/waf-worst.ts at PL1. Prints the benign p50/p99 for each zone, both
// ways, and what the adversarial requests got; and the proxy's CPU over each phase — its main thread
// (the event loop every request shares) and the whole process (the CRS worker threads too) — per
// adversarial request. Two proxies, one after the other: `inline` (EDGE_WAF_WORKERS=0: the CRS runs on
// the event loop) and `pool` (the CRS of requests over EDGE_WAF_POOL_THRESHOLD bytes on worker
// threads; EDGE_WAF_WORKERS as set, else the default). Origin and proxy run as children
// (bench/edge-proxy.ts), with the default 100 ms WAF budget unless EDGE_WAF_TIME_BUDGET_MS says otherwise.
//
// Run: npx tsx bench/waf-slow-neighbour.ts [seconds, default 10] [adversarial per second, default 20]
//      [inline|pool|both, default both]

import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { request } from 'undici';
import { attacks, place } from '../packages/seclang/test/redos/cases.ts';
import { startChild } from './child.ts';

const PROXY_BENCH = fileURLToPath(new URL('./edge-proxy.ts', import.meta.url));
const PATH = '/catalog/tents?page=2&sort=price&q=2+person';

function child<T>(args: string[], env: Record<string, string> = {}) {
  return startChild<T>(PROXY_BENCH, args, {
    ...process.env,
    EDGE_WAF_TIME_BUDGET_MS: process.env.EDGE_WAF_TIME_BUDGET_MS ?? '100',
    ...env,
  });
}

/** CPU ms of a process (every thread) and of its main thread, from /proc (USER_HZ 100: 10 ms ticks). */
function cpuMs(pid: number): { process: number; main: number } {
  const ticks = (path: string) => {
    const stat = readFileSync(path, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) * 10;
  };
  return { process: ticks(`/proc/${pid}/stat`), main: ticks(`/proc/${pid}/task/${pid}/stat`) };
}

async function benign(url: string, host: string, seconds: number) {
  const r = await autocannon({
    url: `${url}${PATH}`,
    headers: { host, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0', accept: 'text/html' },
    connections: 4,
    overallRate: 100,
    duration: seconds,
  });
  return {
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    non2xx: r.non2xx,
    sent: r.requests.total,
  };
}

/** Sends `perSecond` adversarial requests a second for `seconds`; resolves with their statuses. */
async function adversarial(url: string, host: string, perSecond: number, seconds: number) {
  const attack = attacks().find((a) => a.target === '941160 (issue 13)')!;
  const { request: req } = place(attack, 'multipart');
  const headers: Record<string, string> = { host };
  for (const [k, v] of req.headers) if (k.toLowerCase() !== 'host') headers[k.toLowerCase()] = v;
  const statuses = new Map<string, number>();
  const pending: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; i < perSecond * seconds; i++) {
    const due = started + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(
      request(`${url}/upload`, { method: 'POST', headers, body: req.body as Buffer, headersTimeout: 60_000 })
        .then(async (res) => {
          await res.body.dump();
          statuses.set(String(res.statusCode), (statuses.get(String(res.statusCode)) ?? 0) + 1);
        })
        .catch((e: Error) => {
          statuses.set(e.name, (statuses.get(e.name) ?? 0) + 1);
        }),
    );
  }
  await Promise.all(pending);
  return Object.fromEntries(statuses);
}

type Hosts = Record<'off' | 'new' | 'legacy', string>;

/** One proxy (inline or pool): benign alone, then beside the adversarial requests. */
async function measure(mode: 'inline' | 'pool', originPort: number, seconds: number, perSecond: number) {
  const proxy = await child<{ port: number; hosts: Hosts }>(
    ['--proxy', `http://127.0.0.1:${originPort}`],
    mode === 'inline' ? { EDGE_WAF_WORKERS: '0' } : {},
  );
  const url = `http://127.0.0.1:${proxy.info.port}`;
  const { off, legacy, new: victim } = proxy.info.hosts;
  try {
    await benign(url, off, 2); // warm-up
    await benign(url, legacy, 2);
    await adversarial(url, victim, 2, 2); // starts the pool's workers, loads their CRS
    for (const [label, busy] of [
      ['alone', false],
      [`beside ${perSecond} adversarial req/s`, true],
    ] as const) {
      const before = cpuMs(proxy.pid);
      const attack = busy ? adversarial(url, victim, perSecond, seconds) : Promise.resolve({});
      const [a, b] = await Promise.all([benign(url, off, seconds), benign(url, legacy, seconds)]);
      const got = await attack;
      const after = cpuMs(proxy.pid);
      console.log(`\n[${mode}] benign GETs ${label}, 100 req/s per zone, 4 connections:`);
      for (const [zone, r] of [
        ['waf off', a],
        ['previous WAF (CRS)', b],
      ] as const) {
        console.log(
          `  ${zone.padEnd(20)} p50 ${r.p50} ms   p99 ${r.p99} ms   max ${r.max} ms   ${r.sent} sent, ${r.non2xx} non-2xx`,
        );
      }
      const main = after.main - before.main;
      const all = after.process - before.process;
      console.log(
        `  proxy CPU: main thread ${main} ms, whole process ${all} ms` +
          (busy
            ? ` (per adversarial request, less the benign phase's: see the two rows; ${perSecond * seconds} sent)`
            : ''),
      );
      if (busy) console.log(`  adversarial answers: ${JSON.stringify(got)}`);
    }
  } finally {
    proxy.kill();
  }
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 10);
  const perSecond = Number(process.argv[3] ?? 20);
  const which = process.argv[4] ?? 'both';
  const modes = which === 'both' ? (['inline', 'pool'] as const) : ([which] as ['inline' | 'pool']);
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  console.log(
    `npx tsx bench/waf-slow-neighbour.ts ${seconds} ${perSecond} ${which}: ${cpus().length} cores, load average ${load()}; ` +
      `EDGE_WAF_WORKERS=${process.env.EDGE_WAF_WORKERS ?? '(default)'} EDGE_WAF_POOL_THRESHOLD=${process.env.EDGE_WAF_POOL_THRESHOLD ?? '(default)'}`,
  );
  const origin = await child<{ port: number }>(['--origin']);
  try {
    for (const mode of modes) {
      await measure(mode, origin.info.port, seconds, perSecond);
      console.log(`  load average ${load()}`);
    }
  } finally {
    origin.kill();
  }
}

await main();
