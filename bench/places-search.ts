// Benchmark: the places search API on 1,000,000 generated places, over loopback, on the engine of the
// environment (PGlite in memory, or PostgreSQL with DATABASE_URL=…). Prints the time to generate and to import
// 1M places, and for (a) ll+radius nearest, (b) query+ll, (c) category+open_now+ll, (d) near:
// - closed loop (autocannon, N connections each sending its next request when the last is answered): the
//   saturation throughput, and the median/p99 latency at it, which is mostly queueing;
// - open loop (requests sent at a fixed rate whatever the answers, on as many connections as that takes):
//   median/p99 latency measured from the time each request was due to be sent, so a stalled server is not
//   hidden by requests that were never sent (no coordinated omission). The rate is given, or half of the
//   scenario's closed-loop throughput.
// Targets: generate < 3 min, import < 2 min, p99 < 25 ms on PostgreSQL (a–c).
// Run: npx tsx bench/places-search.ts [seconds per scenario, default 10] [connections, default 8] [rate/s]
//      DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/places-search.ts
//      PLACES_BENCH_COUNT=100000 for a quicker look; PLACES_BENCH_REUSE=1 (PostgreSQL) serves the database
//      of the last run when it holds the same count (no generation, no import); PLACES_BENCH_ONLY=bc runs only
//      the scenarios named. The closed-loop table adds the CPU time per request of the server process and of
//      the PostgreSQL backends (from /proc), which, unlike latency, does not grow with queueing.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { QUERY_WORDS } from './places-words.ts';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 8);
const fixedRate = process.argv[4] === undefined ? undefined : Number(process.argv[4]);
const dir = mkdtempSync(join(tmpdir(), 'cairn-places-bench-'));
const csv = join(dir, 'places.csv');

interface Ready {
  port: number;
  key: string;
  /** null when an existing database was reused (PLACES_BENCH_REUSE=1). */
  generateMs: number | null;
  exportMs: number;
  count: number;
  engine: string;
  restaurant: string;
  cities: { name: string; latitude: number; longitude: number }[];
}

function child(script: string, args: string[], env: Record<string, string>) {
  return spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL(script, import.meta.url)), ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    },
  );
}

function firstJsonLine<T>(proc: ReturnType<typeof child>): Promise<T> {
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as T);
    });
    proc.on('exit', (code) => reject(new Error(`${proc.spawnargs.join(' ')} exited with ${code}`)));
  });
}

const server = child('./places-server.ts', [], { PLACES_BENCH_CSV: csv });
const ready = await firstJsonLine<Ready>(server);
const headers = { authorization: `Bearer ${ready.key}`, 'x-places-api-version': '2025-06-17' };

// Query centres: the 100 most populous cities, where generated places are densest, jittered a little.
let i = 0;
const city = () => ready.cities[i++ % ready.cities.length]!;
const ll = () => {
  const c = city();
  return `${(c.latitude + ((i * 7919) % 100) / 5000).toFixed(5)},${(c.longitude + ((i * 104729) % 100) / 5000).toFixed(5)}`;
};
const words = QUERY_WORDS;
const scenarios: Record<string, () => string> = {
  '(a) ll + radius, nearest': () => `/places/search?ll=${ll()}&radius=5000&limit=10`,
  '(b) query + ll': () => `/places/search?query=${words[i % words.length]}&ll=${ll()}&limit=10`,
  '(c) category + open_now + ll': () =>
    `/places/search?fsq_category_ids=${ready.restaurant}&open_now=true&ll=${ll()}&limit=10`,
  '(d) near': () => `/places/search?near=${encodeURIComponent(city().name)}&limit=10`,
};

/**
 * CPU time (user + system, ms) of each process, from /proc (Linux; absent elsewhere or for a process that is
 * gone). Per request, it does not grow with queueing as latency does, so it compares runs on a busy machine.
 */
function cpuMs(pids: readonly number[]): Map<number, number> {
  const ms = new Map<number, number>();
  for (const pid of pids) {
    try {
      // Fields after the command name (which may hold spaces): utime and stime are the 14th and 15th.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ms.set(pid, (Number(fields[11]) + Number(fields[12])) * 10); // USER_HZ is 100 on Linux
    } catch {
      // not Linux, or the process has exited
    }
  }
  return ms;
}

/** CPU used between two readings: processes started since count whole, those gone since are not counted. */
function cpuUsed(before: Map<number, number>, after: Map<number, number>): number {
  let used = 0;
  for (const [pid, ms] of after) used += ms - (before.get(pid) ?? 0);
  return used;
}

/** The PostgreSQL backends serving the benchmark's database (none on PGlite, which runs in the server). */
async function backendPids(): Promise<number[]> {
  if (ready.engine !== 'postgres' || !process.env.DATABASE_URL) return [];
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const { rows } = await client.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = 'cairn_bench_places' AND pid <> pg_backend_pid()`,
  );
  await client.end();
  return rows.map((r) => r.pid);
}

async function run(path: () => string) {
  const nodeBefore = cpuMs([server.pid!]);
  const pgBefore = cpuMs(await backendPids());
  const result = await autocannon({
    url: `http://127.0.0.1:${ready.port}`,
    connections,
    duration: seconds,
    requests: [{ method: 'GET', headers, setupRequest: (req) => ({ ...req, path: path() }) }],
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${path()}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  const requests = result.requests.total;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    nodeCpu: cpuUsed(nodeBefore, cpuMs([server.pid!])) / requests,
    pgCpu: cpuUsed(pgBefore, cpuMs(await backendPids())) / requests,
    load: loadavg()[0]!,
  };
}

interface OpenFigures {
  rate: number;
  achieved: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** The most a send started after its due time (the load generator's own lag, included in the latencies). */
  lag: number;
  load: number;
}

/**
 * Sends `rate` requests a second for `seconds`, each at its due time, on a keep-alive agent that opens
 * connections as needed; a request's latency runs from its due time to the end of its answer.
 */
async function openLoop(path: () => string, rate: number): Promise<OpenFigures> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const interval = 1000 / rate;
  const total = Math.max(1, Math.round(rate * seconds));
  const latencies: number[] = [];
  const failures: string[] = [];
  let lag = 0;
  const start = performance.now() + 20;
  await new Promise<void>((done) => {
    let sent = 0;
    let finished = 0;
    const finish = () => {
      if (++finished === total) done();
    };
    const send = (due: number) => {
      const url = path();
      const req = request({ host: '127.0.0.1', port: ready.port, path: url, headers, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - due);
          if (res.statusCode !== 200) failures.push(`${url}: ${res.statusCode}`);
          finish();
        });
      });
      req.on('error', (error) => {
        failures.push(`${url}: ${error.message}`);
        finish();
      });
      req.end();
    };
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) {
        const due = start + sent * interval;
        lag = Math.max(lag, now - due);
        sent++;
        send(due);
      }
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
    };
    setTimeout(tick, 20);
  });
  const elapsed = performance.now() - start;
  agent.destroy();
  if (failures.length > 0) throw new Error(`${failures.length} failed, e.g. ${failures[0]}`);
  latencies.sort((x, y) => x - y);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
  return {
    rate,
    achieved: total / (elapsed / 1000),
    p50: q(0.5),
    p90: q(0.9),
    p99: q(0.99),
    max: latencies[latencies.length - 1]!,
    lag,
    load: loadavg()[0]!,
  };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const loadAtStart = load();
const figures: Record<string, Awaited<ReturnType<typeof run>>> = {};
const open: Record<string, OpenFigures> = {};
const only = process.env.PLACES_BENCH_ONLY; // e.g. "bc": only scenarios (b) and (c)
for (const [name, path] of Object.entries(scenarios)) {
  if (only && !only.includes(name[1]!)) continue;
  await run(path); // warm-up: caches, JIT
  figures[name] = await run(path);
  open[name] = await openLoop(path, fixedRate ?? Math.max(1, Math.round(figures[name].rps / 2)));
}
server.kill('SIGTERM');
await new Promise((ok) => server.once('exit', ok));

let imported: { imported: number; bad: number; ms: number } | undefined;
if (ready.generateMs !== null) {
  const importer = child('./places-import.ts', [csv], {});
  imported = await firstJsonLine<{ imported: number; bad: number; ms: number }>(importer);
  await new Promise((ok) => importer.once('exit', ok));
}
rmSync(dir, { recursive: true, force: true });

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
console.log(
  `places search benchmark — ${ready.engine}, ${ready.count.toLocaleString('en-US')} places, ${connections} connections, ${seconds} s per scenario, ${cpus().length} cores; load average at start ${loadAtStart}, at the end ${load()}`,
);
if (ready.generateMs === null || !imported) {
  console.log('generate, import: not measured (an existing database was reused: PLACES_BENCH_REUSE=1)');
} else {
  console.log(
    `generate ${ready.count.toLocaleString('en-US')}: ${s(ready.generateMs)} (${Math.round(ready.count / (ready.generateMs / 1000)).toLocaleString('en-US')}/s)`,
  );
  console.log(
    `import ${imported.imported.toLocaleString('en-US')} CSV rows: ${s(imported.ms)} (${imported.bad} bad)   [export took ${s(ready.exportMs)}]`,
  );
}
console.log(`closed loop, ${connections} connections (saturation)`);
console.log(
  'scenario                          p50 ms   p99 ms     req/s   CPU ms/req: server  PostgreSQL   load (1 min)',
);
for (const [name, f] of Object.entries(figures)) {
  console.log(
    `${name.padEnd(32)} ${String(f.p50).padStart(7)} ${String(f.p99).padStart(8)} ${String(Math.round(f.rps)).padStart(9)} ${f.nodeCpu.toFixed(2).padStart(19)} ${ready.engine === 'postgres' ? f.pgCpu.toFixed(2).padStart(11) : '          -'} ${f.load.toFixed(2).padStart(14)}`,
  );
}
console.log(
  `open loop, fixed rate (${fixedRate === undefined ? 'half the closed-loop req/s' : `${fixedRate}/s`}); latency from each request's due time`,
);
console.log(
  'scenario                          rate/s  sent/s   p50 ms   p90 ms   p99 ms   max ms  send lag ms   load (1 min)',
);
const ms = (v: number) => v.toFixed(1).padStart(8);
for (const [name, f] of Object.entries(open)) {
  console.log(
    `${name.padEnd(32)} ${String(f.rate).padStart(7)} ${String(Math.round(f.achieved)).padStart(7)} ${ms(f.p50)} ${ms(f.p90)} ${ms(f.p99)} ${ms(f.max)} ${f.lag.toFixed(1).padStart(12)} ${f.load.toFixed(2).padStart(14)}`,
  );
}
