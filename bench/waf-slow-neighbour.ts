// Benchmark: does one slow request starve the others? Benign browser GETs go through the edge proxy to
// two zones (WAF off, and the previous WAF on the CRS), first alone, then while 20 adversarial requests
// a second go to a third zone (the new WAF at PL1): issue 13's 941160 input as a 128 KB multipart
// field, the worst case of bench/waf-worst.ts at PL1. Prints the benign p50/p99 for each zone, both
// ways, and what the adversarial requests got. Origin and proxy run as children (bench/edge-proxy.ts),
// with the default 100 ms WAF budget unless EDGE_WAF_TIME_BUDGET_MS says otherwise.
//
// Run: npx tsx bench/waf-slow-neighbour.ts [seconds, default 10] [adversarial per second, default 20]

import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { request } from 'undici';
import { attacks, place } from '../packages/seclang/test/redos/cases.ts';
import { startChild } from './child.ts';

const PROXY_BENCH = fileURLToPath(new URL('./edge-proxy.ts', import.meta.url));
const PATH = '/catalog/tents?page=2&sort=price&q=2+person';

function child<T>(args: string[]): Promise<{ info: T; kill(): void }> {
  return startChild<T>(PROXY_BENCH, args, {
    ...process.env,
    EDGE_WAF_TIME_BUDGET_MS: process.env.EDGE_WAF_TIME_BUDGET_MS ?? '100',
  });
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

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 10);
  const perSecond = Number(process.argv[3] ?? 20);
  console.log(
    `npx tsx bench/waf-slow-neighbour.ts ${seconds} ${perSecond}: ${cpus().length} cores, load average ` +
      loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
  );
  const origin = await child<{ port: number }>(['--origin']);
  const proxy = await child<{ port: number; hosts: Record<'off' | 'new' | 'legacy', string> }>([
    '--proxy',
    `http://127.0.0.1:${origin.info.port}`,
  ]);
  const url = `http://127.0.0.1:${proxy.info.port}`;
  const { off, legacy, new: victim } = proxy.info.hosts;
  try {
    await benign(url, off, 2); // warm-up
    await benign(url, legacy, 2);
    for (const [label, busy] of [
      ['alone', false],
      [`beside ${perSecond} adversarial req/s`, true],
    ] as const) {
      const attack = busy ? adversarial(url, victim, perSecond, seconds) : Promise.resolve({});
      const [a, b] = await Promise.all([benign(url, off, seconds), benign(url, legacy, seconds)]);
      const got = await attack;
      console.log(`\nbenign GETs ${label}, 100 req/s per zone, 4 connections:`);
      for (const [zone, r] of [
        ['waf off', a],
        ['previous WAF (CRS)', b],
      ] as const) {
        console.log(
          `  ${zone.padEnd(20)} p50 ${r.p50} ms   p99 ${r.p99} ms   max ${r.max} ms   ${r.sent} sent, ${r.non2xx} non-2xx`,
        );
      }
      if (busy) console.log(`  adversarial answers: ${JSON.stringify(got)}`);
    }
  } finally {
    proxy.kill();
    origin.kill();
  }
}

await main();
