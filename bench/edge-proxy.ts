// Benchmark: the edge data plane beside the simplest alternatives (issue 16). Requests/s and p50/p99 of a
// benign browser GET (1 KB answer, 16 connections, the same origin and the same Host length everywhere):
//   direct to the origin; a bare node:http + undici Pool proxy (bench/bare-proxy.ts); nginx as a plain
//   proxy; Cairn with the WAF off; Cairn with the new WAF at PL1 (the edge managed ruleset and the OWASP
//   Core Ruleset at PL1 on the real CRS); nginx + ModSecurity v3 + the same CRS at PL1 (bench/waf-modsec.ts,
//   Debian's packages, when installed); Cairn on the previous WAF (zone waf on: the managed and OWASP
//   packages); and 1 worker against N (`cairn serve` with CAIRN_WORKERS=1 and one per core, on PostgreSQL:
//   bench/cairn-workers.ts).
// Every server is one process on loopback (nginx with master_process off); autocannon runs here. Paired
// rounds: each round measures every case once (in a rotated order), each ratio is taken within a round,
// and the table prints medians over rounds, the ratios against the bare proxy and nginx + ModSecurity,
// the command and the load average.
//
// Run: npx tsx bench/edge-proxy.ts [seconds per run, default 5] [rounds, default 5] (DATABASE_URL=… for PostgreSQL)
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { workersRows } from './cairn-workers.ts';
import { startChild } from './child.ts';
import { createPl1Zone } from './edge-zone.ts';
import { latencyPercentiles, report } from './report.ts';
import { cpuMicros, ModsecServer, modsecAvailability } from './waf-modsec.ts';

const SELF = fileURLToPath(import.meta.url);
const BARE = fileURLToPath(new URL('./bare-proxy.ts', import.meta.url));

const BROWSER = {
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
  'accept-language': 'en-GB,en;q=0.9,fr;q=0.8',
  'accept-encoding': 'gzip, deflate, br',
  referer: 'https://shop.example.com/catalog?page=2',
  cookie: 'session=8f14e45fceea167a5a36dedd4bea2543; theme=dark; lang=en-GB; cart=3',
};
const PATH = '/catalog/tents?page=2&sort=price&q=2+person';

/** The origin: a 1 KB HTML answer. */
async function serveOrigin(): Promise<void> {
  const body = `<!doctype html><title>tents</title>${'<p>A light two-person tent.</p>'.repeat(30)}`;
  const server = createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
}

/** The proxy: Cairn's edge service on a fresh database with the three zones. */
async function serveProxy(origin: string): Promise<void> {
  const kit = await import('@cairn/kit');
  const edgeLib = await import('@cairn/edge');
  const config = kit.loadConfig({
    ...process.env,
    LOG_LEVEL: 'warn',
    CAIRN_DATA_DIR: process.env.DATABASE_URL ? '' : mkdtempSync(join(tmpdir(), 'cairn-bench-edge-')),
  });
  const db = await kit.openDb(config);
  const deps = { db, clock: kit.systemClock, log: kit.createLogger('warn') };
  // A loaded 2-core machine can preempt an evaluation past the default 100 ms budget, and the fail-closed
  // policy then blocks it: measure throughput with a wider budget unless one is given.
  const edge = edgeLib.createEdge(
    deps,
    edgeLib.loadEdgeConfig(),
    edgeLib.loadProxyConfig({
      ...process.env,
      EDGE_WAF_TIME_BUDGET_MS: process.env.EDGE_WAF_TIME_BUDGET_MS ?? '1000',
    }),
  );
  await kit.migrate(db, edge.module.migrations);
  const account = await edgeLib.ensureAccount(edge.deps, `Bench ${Date.now()}`);
  const suffix = Date.now().toString(36);
  // names of one length: the same Host size everywhere
  const name = (label: string) => `${label}-${suffix}.bench.test`;
  const off = await edgeLib.createZone(edge.deps, {
    accountId: account.id,
    name: name('off'),
    plan: 'pro',
    origin,
  });
  const fresh = await createPl1Zone(edge.deps, { accountId: account.id, name: name('new'), origin });
  const legacy = await edgeLib.createZone(edge.deps, {
    accountId: account.id,
    name: name('old'),
    plan: 'pro',
    origin,
  });
  await db.query(
    `INSERT INTO edge_zone_settings (zone_id, setting_id, value, modified_on) VALUES ($1, 'waf', '"on"', now())`,
    [legacy.id],
  );
  const proxy = await edge.startProxy({ port: 0, host: '127.0.0.1' });
  for (const z of [off, fresh, legacy]) {
    const plan = await edge.engine.planFor(z.id); // compile (and load the CRS) before measuring
    if (plan?.warnings.length) console.error(plan.warnings.join('\n'));
  }
  console.log(
    JSON.stringify({ port: proxy.port, hosts: { off: off.name, new: fresh.name, legacy: legacy.name } }),
  );
}

function child<T>(args: string[], script = SELF): Promise<{ info: T; pid: number; kill(): void }> {
  return startChild<T>(script, args);
}

interface Figure {
  rps: number;
  /** CPU µs per request of the process serving the case (the origin for direct), when its pid is given. */
  cpu?: number;
  p50: number;
  p99: number;
  percentiles: Record<string, number>;
}

const CONNECTIONS = 16;

async function run(url: string, host: string, seconds: number, pid?: number): Promise<Figure> {
  const cpuBefore = pid === undefined ? 0 : cpuMicros(pid);
  const errorCodes = new Map<string, number>();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${url}${PATH}`,
        headers: { ...BROWSER, host },
        connections: CONNECTIONS,
        duration: seconds,
        pipelining: 1,
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('reqError', (error: Error & { code?: string }) => {
      const code = error.code ?? error.message;
      errorCodes.set(code, (errorCodes.get(code) ?? 0) + 1);
    });
  });
  // Every answer must be a 200. A request autocannon gave up on (its 10 s timeout: a process starved on a
  // loaded machine) or a connection error is said (by code), not fatal, unless more than one in 10,000 are.
  if (result.non2xx > 0 || result.errors > result.requests.total / 10_000)
    throw new Error(
      `${url} (${host}): ${result.non2xx} non-2xx (${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors`,
    );
  if (result.errors > 0)
    console.error(
      `${url} (${host}): ${result.errors} errors (${[...errorCodes].map(([code, n]) => `${code} ×${n}`).join(', ')}) in ${result.requests.total} requests`,
    );
  return {
    rps: result.requests.average,
    ...(pid === undefined ? {} : { cpu: (cpuMicros(pid) - cpuBefore) / result.requests.total }),
    p50: result.latency.p50,
    p99: result.latency.p99,
    percentiles: latencyPercentiles(result),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 5);
  const rounds = Number(process.argv[3] ?? 5);
  const started: { kill(): void }[] = [];
  let modsec: ModsecServer | undefined;
  try {
    const origin = await child<{ port: number }>(['--origin']);
    started.push(origin);
    const originUrl = `http://127.0.0.1:${origin.info.port}`;
    const bare = await child<{ port: number }>([originUrl], BARE);
    started.push(bare);
    const proxy = await child<{ port: number; hosts: Record<'off' | 'new' | 'legacy', string> }>([
      '--proxy',
      originUrl,
    ]);
    started.push(proxy);
    const missing = modsecAvailability();
    if (!missing) modsec = await ModsecServer.start(1, { backendPort: origin.info.port });
    const proxyUrl = `http://127.0.0.1:${proxy.info.port}`;
    const host = proxy.info.hosts.off;
    const nginx = modsec?.pid as number;
    const cases: Record<string, { url: string; host: string; pid: number }> = {
      direct: { url: originUrl, host, pid: origin.pid },
      'bare proxy': { url: `http://127.0.0.1:${bare.info.port}`, host, pid: bare.pid },
      ...(modsec ? { 'nginx proxy': { url: `http://127.0.0.1:${modsec.proxyPort}`, host, pid: nginx } } : {}),
      'cairn waf off': { url: proxyUrl, host, pid: proxy.pid },
      'cairn new WAF PL1': { url: proxyUrl, host: proxy.info.hosts.new, pid: proxy.pid },
      ...(modsec
        ? {
            'nginx+ModSec PL1': {
              url: `http://127.0.0.1:${modsec.wafPort}`,
              host: proxy.info.hosts.new,
              pid: nginx,
            },
          }
        : {}),
      'cairn previous WAF': { url: proxyUrl, host: proxy.info.hosts.legacy, pid: proxy.pid },
    };
    const names = Object.keys(cases);
    const samples = new Map<string, Figure[]>(names.map((n) => [n, []]));
    const loadBefore = load();
    for (const c of Object.values(cases)) await run(c.url, c.host, 2); // warm-up (JIT, pools, CRS)
    for (let round = 0; round < rounds; round++) {
      // rotated order: no case always runs first (or right after the heaviest one)
      for (let i = 0; i < names.length; i++) {
        const name = names[(i + round) % names.length] as string;
        const c = cases[name] as { url: string; host: string; pid: number };
        samples.get(name)?.push(await run(c.url, c.host, seconds, c.pid));
      }
    }
    // 1 worker against N: the real cairn serve with CAIRN_WORKERS (bench/cairn-workers.ts; PostgreSQL only)
    const workers = await workersRows(originUrl, seconds, rounds, run);
    printTable(samples, { seconds, rounds, loadBefore, modsecMissing: missing, workers });
  } finally {
    await modsec?.stop();
    for (const c of started) c.kill();
  }
}

function printTable(
  samples: Map<string, Figure[]>,
  run: {
    seconds: number;
    rounds: number;
    loadBefore: string;
    modsecMissing: string | undefined;
    workers: string[];
  },
): void {
  const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  const bare = samples.get('bare proxy') as Figure[];
  const modsec = samples.get('nginx+ModSec PL1');
  /** The median over rounds of this case's throughput over the peer's in the same round. */
  const ratio = (list: Figure[], peer: Figure[]) =>
    median(list.map((s, i) => s.rps / (peer[i] as Figure).rps)).toFixed(2);
  console.log(
    `edge proxy benchmark (Cairn on ${engine}): benign browser GET, 1 KB answer, ${CONNECTIONS} connections, ` +
      `${run.rounds} paired rounds × ${run.seconds} s, medians; every server one process`,
  );
  /** The median CPU µs per request of the process serving the case (its share of the machine aside). */
  const cpu = (list: Figure[]) => median(list.map((s) => s.cpu ?? Number.NaN));
  console.log(
    `  ${'case'.padEnd(20)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}  ${'× bare'.padStart(7)}  ${'× nginx+ModSec'.padStart(14)}  ${'CPU µs/req'.padStart(10)}`,
  );
  for (const [name, list] of samples) {
    const rps = median(list.map((s) => s.rps));
    console.log(
      `  ${name.padEnd(20)} ${rps.toFixed(0).padStart(7)} ${String(median(list.map((s) => s.p50))).padStart(7)} ${String(
        median(list.map((s) => s.p99)),
      ).padStart(
        7,
      )}  ${ratio(list, bare).padStart(7)}  ${(modsec ? ratio(list, modsec) : '-').padStart(14)}  ${cpu(list)
        .toFixed(0)
        .padStart(10)}`,
    );
    report({ kind: 'latency', bench: 'edge-proxy', name, percentiles: (list.at(-1) as Figure).percentiles });
    if (name !== 'bare proxy')
      report({
        bench: 'edge-proxy',
        name: `${name} (against the bare proxy)`,
        unit: 'req/s',
        ours: rps,
        peer: { name: 'bare node:http + undici proxy', value: median(bare.map((s) => s.rps)) },
        lowerIsBetter: false,
      });
    if (modsec && name.startsWith('cairn'))
      report({
        bench: 'edge-proxy',
        name: `${name} (against nginx + ModSecurity PL1)`,
        unit: 'req/s',
        ours: rps,
        peer: { name: 'nginx + ModSecurity v3 + CRS PL1', value: median(modsec.map((s) => s.rps)) },
        lowerIsBetter: false,
      });
  }
  if (run.modsecMissing) console.log(`  nginx and nginx + ModSecurity: ${run.modsecMissing}`);
  for (const line of run.workers) console.log(`  1 worker vs N workers, cairn serve: ${line}`);
  const off = samples.get('cairn waf off') as Figure[];
  const fresh = samples.get('cairn new WAF PL1') as Figure[];
  console.log(
    `  targets: WAF off ≥ 0.90× bare: ${ratio(off, bare)}×` +
      (modsec ? `; new WAF PL1 ≥ 6× nginx + ModSecurity PL1: ${ratio(fresh, modsec)}×` : ''),
  );
  // CPU per request is what a loaded machine distorts least (throughput also depends on each process's
  // share of the cores); "CPU µs/req" is the serving process's utime + stime over the requests it served
  console.log(
    `  CPU per request: WAF off ${(cpu(off) / cpu(bare)).toFixed(2)}× the bare proxy's` +
      (modsec ? `; nginx + ModSecurity PL1 ${(cpu(modsec) / cpu(fresh)).toFixed(2)}× the new WAF PL1's` : ''),
  );
  report({
    bench: 'edge-proxy',
    name: 'cairn waf off, CPU per request',
    unit: 'CPU µs per request',
    ours: cpu(off),
    peer: { name: 'bare node:http + undici proxy', value: cpu(bare) },
    lowerIsBetter: true,
  });
  if (modsec)
    report({
      bench: 'edge-proxy',
      name: 'cairn new WAF PL1, CPU per request',
      unit: 'CPU µs per request',
      ours: cpu(fresh),
      peer: { name: 'nginx + ModSecurity v3 + CRS PL1', value: cpu(modsec) },
      lowerIsBetter: true,
    });
  console.log(
    `command: npx tsx bench/edge-proxy.ts ${run.seconds} ${run.rounds}; ${cpus().length} cores, load average ` +
      `${run.loadBefore} before, ${load()} after`,
  );
}

if (process.argv[2] === '--origin') await serveOrigin();
else if (process.argv[2] === '--proxy') await serveProxy(process.argv[3] as string);
else await main();
