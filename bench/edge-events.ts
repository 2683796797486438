// Benchmark: Security Events at volume. An all-attack load — every request is an XSS in the query string,
// blocked by the OWASP Core Ruleset at PL1 on a zone with both managed rulesets, so every request makes
// several events — through two proxies in the same run: one recording Security Events as `cairn serve`
// does, one whose recorder does nothing. Paired rounds (each round runs both, in alternating order);
// prints medians, the ratio recording/not recording (the target: ≥ 0.9, i.e. recording costs < 10%), and
// what the recording proxy kept: events stored, sampled out, dropped, and the exact counts. Throughput on
// a shared, loaded machine is noisy, so each run also measures the proxy process's CPU time per request
// (with its flush: the events' writes count; on PGlite the database runs in that process too).
// Four processes on loopback: this one (autocannon), the origin, and the two proxies (each its own
// database on PGlite; one PostgreSQL database for both with DATABASE_URL).
//
// Run: npx tsx bench/edge-events.ts [seconds per run, default 3] [rounds, default 11] (DATABASE_URL=… for PostgreSQL;
// EDGE_EVENTS_AA=1: both proxies record, to see the machine's noise)
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startChild } from './child.ts';
import { createPl1Zone } from './edge-zone.ts';
import { report } from './report.ts';
import { cpuMicros } from './waf-modsec.ts';

const SELF = fileURLToPath(import.meta.url);
const ATTACK = '/search?q=%3Cscript%3Ealert(document.cookie)%3C%2Fscript%3E';
const HEADERS = {
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-language': 'en-GB,en;q=0.9',
};

async function serveOrigin(): Promise<void> {
  const server = createServer((_req, res) => res.end('origin'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
}

/** What a proxy answers between rounds: its recorder's counts, the table's rows, its CPU time (µs). */
type ProxyStats = Stats & { rows: number; cpuMicros: number; userMicros: number };

interface Stats {
  written: number;
  dropped: number;
  sampledOut: number;
  counted: number;
  queued: number;
}

/** A proxy with one zone (both managed rulesets at PL1); `record` false: its recorder does nothing. */
async function serveProxy(origin: string, record: boolean): Promise<void> {
  const kit = await import('@cairn/kit');
  const edgeLib = await import('@cairn/edge');
  const config = kit.loadConfig({
    ...process.env,
    LOG_LEVEL: 'warn',
    CAIRN_DATA_DIR: process.env.DATABASE_URL ? '' : mkdtempSync(join(tmpdir(), 'cairn-bench-events-')),
  });
  const db = await kit.openDb(config);
  const deps = { db, clock: kit.systemClock, log: kit.createLogger('warn') };
  const edge = edgeLib.createEdge(
    deps,
    edgeLib.loadEdgeConfig(),
    // a loaded 2-core machine can preempt an evaluation past the default budget (fail closed: blocked anyway)
    edgeLib.loadProxyConfig({ ...process.env, EDGE_WAF_TIME_BUDGET_MS: '1000' }),
  );
  await kit.migrate(db, edge.module.migrations);
  const account = await edgeLib.ensureAccount(edge.deps, `Bench events ${Date.now()}`);
  const zone = await createPl1Zone(edge.deps, {
    accountId: account.id,
    name: `events-${record ? 'on' : 'off'}-${Date.now().toString(36)}.bench.test`,
    origin,
  });
  // The comparison: the same proxy, its recorder told to keep nothing. EDGE_EVENTS_AA=1 lets both
  // record (an A/A run: how far apart two identical proxies measure on this machine).
  if (!record && !process.env.EDGE_EVENTS_AA) edge.recorder.record = () => {};
  const proxy = await edge.startProxy({ port: 0, host: '127.0.0.1' });
  await edge.engine.planFor(zone.id); // compile and load the CRS before measuring
  // Between rounds the parent asks what was recorded (after a flush, so the queue is empty).
  const stats = createServer((_req, res) => {
    void edge.recorder.flush().then(async () => {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM edge_security_events WHERE zone_id = $1',
        [zone.id],
      );
      const r = edge.recorder as unknown as Partial<Stats>;
      const cpu = process.cpuUsage();
      const body: ProxyStats = {
        cpuMicros: cpu.user + cpu.system,
        userMicros: cpu.user,
        written: r.written ?? 0,
        dropped: r.dropped ?? 0,
        sampledOut: r.sampledOut ?? 0,
        counted: r.counted ?? 0,
        queued: r.queued ?? 0,
        rows: rows[0]?.n ?? 0,
      };
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((r) => stats.listen(0, '127.0.0.1', r));
  console.log(
    JSON.stringify({ port: proxy.port, stats: (stats.address() as AddressInfo).port, host: zone.name }),
  );
}

interface ProxyInfo {
  port: number;
  stats: number;
  host: string;
}

interface Run {
  rps: number;
  /** The proxy process's CPU time per request (its database's too on PGlite), µs. */
  cpuPerRequest: number;
  /** The user-space part of it (the kernel's part, mostly loopback socket writes, varies with scheduling). */
  userPerRequest: number;
  /** PostgreSQL's CPU time per request over the run, µs (0 on PGlite, where it is in cpuPerRequest). */
  databasePerRequest: number;
}

/**
 * The CPU time of every PostgreSQL process on this machine, µs (Linux): what the recording proxy's
 * writes cost the database (the other proxy writes nothing). Undefined without a PostgreSQL server.
 */
function postgresCpuMicros(): number | undefined {
  if (!process.env.DATABASE_URL) return undefined;
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      total += cpuMicros(Number(pid));
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

async function run(info: ProxyInfo, seconds: number): Promise<Run> {
  const before = await stats(info);
  const databaseBefore = postgresCpuMicros();
  const result = await autocannon({
    url: `http://127.0.0.1:${info.port}${ATTACK}`,
    headers: { ...HEADERS, host: info.host },
    connections: 32,
    duration: seconds,
  });
  const blocked = result.statusCodeStats?.['403']?.count ?? 0;
  if (blocked !== result.requests.total || result.errors > 0)
    throw new Error(
      `${info.host}: not every request was blocked (${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors`,
    );
  // after the flush: the events' writes count against the requests that made them
  const after = await stats(info);
  const databaseAfter = postgresCpuMicros();
  return {
    rps: result.requests.average,
    cpuPerRequest: (after.cpuMicros - before.cpuMicros) / result.requests.total,
    userPerRequest: (after.userMicros - before.userMicros) / result.requests.total,
    databasePerRequest:
      databaseBefore === undefined || databaseAfter === undefined
        ? 0
        : Math.max(0, databaseAfter - databaseBefore) / result.requests.total, // a process that ended takes its time with it
  };
}

async function stats(info: ProxyInfo): Promise<ProxyStats> {
  const res = await fetch(`http://127.0.0.1:${info.stats}/`);
  return (await res.json()) as ProxyStats;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  // many short rounds: one 5 s run on two shared cores can be 20% off its neighbour (EDGE_EVENTS_AA=1)
  const seconds = Number(process.argv[2] ?? 3);
  const rounds = Number(process.argv[3] ?? 11);
  const loadBefore = load();
  const children: { kill(): void }[] = [];
  const start = async <T>(args: string[]) => {
    const child = await startChild<T>(SELF, args);
    children.push(child);
    return child;
  };
  try {
    await measure(start, seconds, rounds, loadBefore);
  } finally {
    for (const child of children) child.kill();
  }
}

async function measure(
  start: <T>(args: string[]) => Promise<{ info: T }>,
  seconds: number,
  rounds: number,
  loadBefore: string,
): Promise<void> {
  const origin = await start<{ port: number }>(['--origin']);
  const originUrl = `http://127.0.0.1:${origin.info.port}`;
  const on = await start<ProxyInfo>(['--proxy', originUrl, 'on']);
  const off = await start<ProxyInfo>(['--proxy', originUrl, 'off']);
  const samples = { on: [] as Run[], off: [] as Run[] };
  let requests = 0;
  await run(on.info, 2); // warm-up
  await run(off.info, 2);
  await stats(on.info); // the warm-up's events written before measuring
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
    for (const mode of order) {
      const figure = await run(mode === 'on' ? on.info : off.info, seconds);
      samples[mode].push(figure);
      if (mode === 'on') requests += figure.rps * seconds;
    }
  }
  const kept = await stats(on.info);
  const ratios = samples.on.map((v, i) => v.rps / (samples.off[i] as Run).rps);
  const cpuRatios = samples.on.map((v, i) => (samples.off[i] as Run).cpuPerRequest / v.cpuPerRequest);
  const rps = (mode: 'on' | 'off') => median(samples[mode].map((r) => r.rps));
  const cpu = (mode: 'on' | 'off') => median(samples[mode].map((r) => r.cpuPerRequest));
  const user = (mode: 'on' | 'off') => median(samples[mode].map((r) => r.userPerRequest));
  const database = (mode: 'on' | 'off') => median(samples[mode].map((r) => r.databasePerRequest));
  const withDatabase = (r: Run) => r.cpuPerRequest + r.databasePerRequest;
  const allCpuRatios = samples.on.map((v, i) => withDatabase(samples.off[i] as Run) / withDatabase(v));
  const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  console.log(
    `Security Events at volume (${engine}): every request an XSS blocked by the CRS at PL1, 32 connections, ${rounds} rounds × ${seconds}s, medians; ${cpus().length} cores, load ${loadBefore} before, ${load()} after`,
  );
  console.log(
    `  not recording  ${rps('off').toFixed(0).padStart(7)} req/s   ${cpu('off').toFixed(0).padStart(4)} µs CPU per request (${user('off').toFixed(0)} in user space) + ${database('off').toFixed(1)} µs PostgreSQL`,
  );
  console.log(
    `  recording      ${rps('on').toFixed(0).padStart(7)} req/s   ${cpu('on').toFixed(0).padStart(4)} µs CPU per request (${user('on').toFixed(0)} in user space) + ${database('on').toFixed(1)} µs PostgreSQL`,
  );
  console.log(
    `  recording / not recording: throughput ${median(ratios).toFixed(2)}× (paired rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')}); requests per CPU second ${median(cpuRatios).toFixed(2)}× (${cpuRatios.map((r) => r.toFixed(2)).join(', ')}), with PostgreSQL's ${median(allCpuRatios).toFixed(2)}×`,
  );
  console.log(
    `  recorded: ~${requests.toFixed(0)} blocked requests measured; ${kept.counted} events counted exactly, ${kept.written} stored as rows (${kept.rows} in the table), ${kept.sampledOut} sampled out, ${kept.dropped} dropped`,
  );
  report({
    bench: 'edge-events',
    name: 'all-attack load, recording Security Events',
    unit: 'req/s',
    ours: rps('on'),
    peer: { name: 'the same proxy not recording', value: rps('off') },
    lowerIsBetter: false,
  });
  report({
    bench: 'edge-events',
    name: 'all-attack load, CPU per request while recording Security Events',
    unit: 'µs',
    ours: cpu('on'),
    peer: { name: 'the same proxy not recording', value: cpu('off') },
    lowerIsBetter: true,
  });
}

if (process.argv[2] === '--origin') await serveOrigin();
else if (process.argv[2] === '--proxy') await serveProxy(process.argv[3] as string, process.argv[4] === 'on');
else await main();
