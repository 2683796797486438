// Benchmark: slow clients at the edge proxy (issue 16, point 3). The latency of normal requests (a new
// connection each, sent one after another from 127.0.0.1) with no other client, and while 200 clients
// from 127.0.0.2 send their request heads a byte a second (held by the proxy until EDGE_HEADERS_TIMEOUT_MS;
// the per-address cap, 256 by default, keeps them all). Paired rounds; prints the medians over rounds of
// the per-round median and p99, the ratio, how many normal requests failed, the command and the load.
// One process: the proxy (PGlite), the origin and the clients.
//
// Run: npx tsx bench/edge-slow-clients.ts [requests per round, default 300] [rounds, default 5]
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as edgeLib from '@cairn/edge';
import * as kit from '@cairn/kit';

const perRound = Number(process.argv[2] ?? 300);
const rounds = Number(process.argv[3] ?? 5);
const SLOW = 200;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] ?? 0;

const origin = createServer((_req, res) => res.end('ok'));
await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
const originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;

const config = kit.loadConfig({
  ...process.env,
  LOG_LEVEL: 'warn',
  CAIRN_DATA_DIR: mkdtempSync(join(tmpdir(), 'cairn-bench-slow-')),
});
const db = await kit.openDb(config);
const edge = edgeLib.createEdge(
  { db, clock: kit.systemClock, log: kit.createLogger('warn') },
  edgeLib.loadEdgeConfig(),
  edgeLib.loadProxyConfig(process.env),
);
await kit.migrate(db, edge.module.migrations);
const account = await edgeLib.ensureAccount(edge.deps, 'Bench');
await edgeLib.createZone(edge.deps, {
  accountId: account.id,
  name: 'slow.bench.test',
  plan: 'pro',
  origin: originUrl,
});
const proxy = await edge.startProxy({ port: 0, host: '127.0.0.1' });

/** One GET on a new connection; its latency in ms, or -1 when it was not answered 200. */
function normalRequest(): Promise<number> {
  const start = performance.now();
  return new Promise((resolve) => {
    const socket = connect(proxy.port, '127.0.0.1');
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.on('error', () => resolve(-1));
    socket.on('close', () => resolve(text.startsWith('HTTP/1.1 200 ') ? performance.now() - start : -1));
    socket.write('GET / HTTP/1.1\r\nHost: slow.bench.test\r\nConnection: close\r\n\r\n');
  });
}

function slowClients(n: number): Socket[] {
  const head = 'GET / HTTP/1.1\r\nHost: slow.bench.test\r\n\r\n';
  return Array.from({ length: n }, () => {
    const socket = connect({ port: proxy.port, host: '127.0.0.1', localAddress: '127.0.0.2' });
    socket.on('error', () => {});
    let i = 0;
    const timer = setInterval(() => socket.write(head[i++ % head.length] as string), 1000);
    socket.once('close', () => clearInterval(timer));
    socket.once('connect', () => socket.write(head[i++] as string));
    return socket;
  });
}

async function round(withSlow: boolean): Promise<{ latencies: number[]; failed: number }> {
  const slow = withSlow ? slowClients(SLOW) : [];
  if (withSlow) await new Promise((r) => setTimeout(r, 1500)); // all connected and a byte or two in
  const latencies: number[] = [];
  let failed = 0;
  for (let i = 0; i < perRound; i++) {
    const ms = await normalRequest();
    if (ms < 0) failed++;
    else latencies.push(ms);
  }
  for (const s of slow) s.destroy();
  return { latencies, failed };
}

await round(false); // warm-up
const rows = {
  alone: { med: [] as number[], p99: [] as number[], failed: 0 },
  slow: { med: [] as number[], p99: [] as number[], failed: 0 },
};
for (let r = 0; r < rounds; r++) {
  for (const which of r % 2 === 0 ? (['alone', 'slow'] as const) : (['slow', 'alone'] as const)) {
    const { latencies, failed } = await round(which === 'slow');
    rows[which].med.push(median(latencies));
    rows[which].p99.push(p99(latencies));
    rows[which].failed += failed;
  }
}
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
console.log(
  `normal requests (new connection each), ${perRound} per round, ${rounds} paired rounds, medians:`,
);
console.log(
  `  alone:                  p50 ${fmt(median(rows.alone.med))}  p99 ${fmt(median(rows.alone.p99))}  failed ${rows.alone.failed}`,
);
console.log(
  `  beside ${SLOW} slow clients: p50 ${fmt(median(rows.slow.med))}  p99 ${fmt(median(rows.slow.p99))}  failed ${rows.slow.failed}`,
);
console.log(`  ratio p50 slow/alone: ${(median(rows.slow.med) / median(rows.alone.med)).toFixed(2)}×`);
console.log(
  `command: npx tsx bench/edge-slow-clients.ts ${perRound} ${rounds}; ${cpus().length} cores, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
await edge.stopProxy();
await db.close();
origin.close();
