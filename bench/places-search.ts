// Benchmark: the places search API on 1,000,000 generated places, over loopback, on the engine of the
// environment (PGlite in memory, or PostgreSQL with DATABASE_URL=…). Prints the time to generate and to import
// 1M places, and for (a) ll+radius nearest, (b) query+ll, (c) category+open_now+ll, (d) near:
// - closed loop (autocannon, N connections each sending its next request when the last is answered): the
//   saturation throughput, and the median/p99 latency at it, which is mostly queueing;
// - open loop (requests sent at a fixed rate whatever the answers, on as many connections as that takes):
//   median/p99 latency measured from the time each request was due to be sent, so a stalled server is not
//   hidden by requests that were never sent (no coordinated omission). The rate is given, or half of the
//   scenario's closed-loop throughput (with several sizes, the lowest size's: the same load for every size, one
//   that each serves with room to spare, so the comparison is of searches rather than of one size's queue). It
//   runs in rounds (PLACES_BENCH_ROUNDS, default 5), the scenarios taking turns, and prints each scenario's
//   median round; the load generator runs at nice -10 meanwhile where allowed (PLACES_BENCH_NICE), as clients
//   on other machines would not share the server's cores.
// Targets (issue 20, at 1M on PostgreSQL): generate < 60 s, import < 60 s, open-loop p99 < 10 ms (a–d);
// (issue 19) at 10M, generate and import < 15 min each, p99 within 1.5× of 1M's.
// Run: npx tsx bench/places-search.ts [seconds per scenario, default 10] [connections, default 8] [rate/s]
//      DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/places-search.ts
//      PLACES_BENCH_COUNT=100000 for a quicker look; PLACES_BENCH_REUSE=1 (PostgreSQL) serves the database
//      of the last run when it holds the same count (no generation, no import); PLACES_BENCH_ONLY=bc runs only
//      the scenarios named. The closed-loop table adds the CPU time per request of the server process and of
//      the PostgreSQL backends (from /proc), which, unlike latency, does not grow with queueing.
//      PLACES_BENCH_COUNTS=1000000,10000000 (PostgreSQL) measures several sizes, each in its own database
//      (cairn_1m, cairn_10m; PLACES_BENCH_PREFIX=h8_ names them h8_1m, h8_10m; with PLACES_BENCH_REUSE=1 kept
//      between runs), each on its own server, all servers up together: the closed loops size by size, then the
//      open loop's rounds with every size in each scenario's turn (2 s of warm-up before each phase), at one
//      rate for every size, so that round r of both sizes shares one minute of this shared machine.
//      It prints them side by side, with each round's p99 ratio, the server's own p99 (from its handler to the
//      answer), the table and index sizes, the server's memory and the share of PostgreSQL block reads that missed
//      its buffer cache.
//      open_now is asked at the same hours for every size: each size's server starts its clock at the instant
//      this run started (or PLACES_BENCH_AT, an ISO time), as the hour decides which places are open.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, getPriority, loadavg, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { servingFlags } from '@cairn/kit';
import autocannon from 'autocannon';
import pg from 'pg';
import { BENCH_PREFIX } from './places-bench-db.ts';
import { QUERY_WORDS } from './places-words.ts';
import { headerLines, RawHttpClient } from './raw-http.ts';
import { quantile } from './report.ts';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 8);
const fixedRate = process.argv[4] === undefined ? undefined : Number(process.argv[4]);
const openRounds = Number(process.env.PLACES_BENCH_ROUNDS ?? 5);
/** The instant each size's server starts its clock at (so the sizes are asked open_now at the same hours). */
const benchAt = process.env.PLACES_BENCH_AT ?? new Date().toISOString();
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
    // The V8 flags `cairn serve` gives its workers (packages/kit/src/serving-flags.ts).
    [...servingFlags(), '--import', 'tsx', fileURLToPath(new URL(script, import.meta.url)), ...args],
    {
      // ipc: the server reports its stalls (garbage collection, event loop delay) per open-loop phase
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      env: { ...process.env, PLACES_BENCH_AT: benchAt, ...env },
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

/** What the import process reports (bench/places-import.ts). */
interface Imported {
  imported: number;
  bad: number;
  ms: number;
}

/** One size's server, serving its own database, and what it said when ready. */
interface Served {
  server: ReturnType<typeof child>;
  ready: Ready;
  headers: Record<string, string>;
  dbName: string;
  imported?: Imported;
  /** The database's sizes and block reads before the scenarios (PostgreSQL). */
  before?: Sizes;
  loadAtStart: string;
}

/** The cities and the category the scenarios ask for: the same for every size (from the first server). */
let cities: Ready['cities'] = [];
let restaurant = '';

// Query centres: the 100 most populous cities, where generated places are densest, jittered a little.
let i = 0;
const city = () => cities[i++ % cities.length]!;
const ll = () => {
  const c = city();
  return `${(c.latitude + ((i * 7919) % 100) / 5000).toFixed(5)},${(c.longitude + ((i * 104729) % 100) / 5000).toFixed(5)}`;
};
const words = QUERY_WORDS;
const scenarios: Record<string, () => string> = {
  '(a) ll + radius, nearest': () => `/places/search?ll=${ll()}&radius=5000&limit=10`,
  '(b) query + ll': () => `/places/search?query=${words[i % words.length]}&ll=${ll()}&limit=10`,
  '(c) category + open_now + ll': () =>
    `/places/search?fsq_category_ids=${restaurant}&open_now=true&ll=${ll()}&limit=10`,
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
async function backendPids({ ready, dbName }: Served): Promise<number[]> {
  if (ready.engine !== 'postgres' || !process.env.DATABASE_URL) return [];
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const { rows } = await client.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
    [dbName],
  );
  await client.end();
  return rows.map((r) => r.pid);
}

async function run(served: Served, path: () => string) {
  const { server, ready, headers } = served;
  const nodeBefore = cpuMs([server.pid!]);
  const pgBefore = cpuMs(await backendPids(served));
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
    pgCpu: cpuUsed(pgBefore, cpuMs(await backendPids(served))) / requests,
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
  /** The server's garbage collection pauses and event loop delay during the phase. */
  stalls: ServerStalls;
  /**
   * File pages read back from disk after the kernel had evicted them (/proc/vmstat workingset_refault_file),
   * machine-wide, during the phase: with 17 GB free, the evictions are this machine's proactive reclaim
   * (DAMON pageout), and each refault is a disk read some process waited for.
   */
  refaults: number;
  /** Every round, in the order run (on the median round's figures). */
  rounds?: OpenFigures[];
}

interface ServerStalls {
  gc: { count: number; totalMs: number; maxMs: number };
  loopP99Ms: number;
  loopMaxMs: number;
  /** Request head parsed → answer written, in the server process. */
  servedP99Ms: number;
  servedMaxMs: number;
}

/** The server's stalls since the last call (places-server.ts answers over IPC). */
function serverStalls({ server }: Served): Promise<ServerStalls> {
  return new Promise((resolve) => {
    server.once('message', (m) => resolve(m as ServerStalls));
    server.send('stalls');
  });
}

/**
 * Sends `rate` requests a second for `seconds`, each at its due time, on keep-alive connections opened as
 * needed (bench/raw-http.ts); a request's latency runs from its due time to the end of its answer.
 */
async function openLoop(
  served: Served,
  path: () => string,
  rate: number,
  phaseSeconds = seconds,
): Promise<OpenFigures> {
  const client = new RawHttpClient(served.ready.port, headerLines(served.headers));
  const interval = 1000 / rate;
  const total = Math.max(1, Math.round(rate * phaseSeconds));
  const latencies: number[] = [];
  const failures: string[] = [];
  let lag = 0;
  await serverStalls(served); // starts the server's count for this phase
  const refaultsBefore = refaults();
  const niceness = getPriority();
  const raised = raisePriority();
  priorityRaised ??= raised;
  const start = performance.now() + 20;
  await new Promise<void>((done) => {
    let sent = 0;
    let finished = 0;
    const send = (due: number) => {
      const url = path();
      client.get(url, (error, answer) => {
        latencies.push(performance.now() - due);
        if (error) failures.push(`${url}: ${error.message}`);
        else if (answer?.status !== 200) failures.push(`${url}: ${answer?.status}`);
        if (++finished === total) done();
      });
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
  if (raised) setPriority(niceness);
  const stalls = await serverStalls(served);
  client.close();
  if (failures.length > 0) throw new Error(`${failures.length} failed, e.g. ${failures[0]}`);
  latencies.sort((x, y) => x - y);
  const q = (p: number) => quantile(latencies, p)!;
  return {
    rate,
    achieved: total / (elapsed / 1000),
    p50: q(0.5),
    p90: q(0.9),
    p99: q(0.99),
    max: latencies[latencies.length - 1]!,
    lag,
    load: loadavg()[0]!,
    stalls,
    refaults: refaults() - refaultsBefore,
  };
}

/** The machine's count of file pages read back after eviction (0 where /proc/vmstat lacks it). */
function refaults(): number {
  const vmstat = readFileSync('/proc/vmstat', 'utf8');
  return Number(/^workingset_refault_file (\d+)$/m.exec(vmstat)?.[1] ?? 0);
}

/**
 * The niceness the load generator takes during the open loop (PLACES_BENCH_NICE, default -10; 0 leaves it).
 * It stands for clients on other machines: on two cores shared with the server and PostgreSQL, its own
 * scheduling delays would otherwise be counted as the server's latency (its send lag).
 */
const generatorNiceness = Number(process.env.PLACES_BENCH_NICE ?? -10);

/** Raises the load generator's priority; false where the system does not allow it (not root). */
function raisePriority(): boolean {
  if (generatorNiceness === 0) return false;
  try {
    setPriority(generatorNiceness);
    return true;
  } catch {
    return false;
  }
}
let priorityRaised: boolean | undefined;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The database's URL on the server of DATABASE_URL. */
const dbUrl = (name: string) => {
  const u = new URL(process.env.DATABASE_URL!);
  u.pathname = `/${name}`;
  return u.toString();
};

interface Sizes {
  table: number;
  /** places_open_kinds (migration 0018), the table that category + open_now walks. */
  openKinds: number;
  /** The indexes of both tables. */
  indexes: { name: string; bytes: number }[];
  /** Block reads of both tables and their indexes during the scenarios: from the buffer cache, and from the OS. */
  hit: number;
  read: number;
  /** The server's memory settings, as it reports them ("shared_buffers 128MB, …"). */
  settings: string;
}

/** The settings that decide how much of a large dataset the server keeps in memory. */
const MEMORY_SETTINGS = ['shared_buffers', 'effective_cache_size', 'work_mem'];

async function sizes(dbName: string): Promise<Sizes> {
  const client = new pg.Client({ connectionString: dbUrl(dbName) });
  await client.connect();
  try {
    const table = await client.query<{ bytes: string; open_kinds: string }>(
      `SELECT pg_table_size('places') AS bytes, coalesce(pg_table_size(to_regclass('places_open_kinds')), 0) AS open_kinds`,
    );
    const indexes = await client.query<{ name: string; bytes: string }>(
      `SELECT indexrelname AS name, pg_relation_size(indexrelid) AS bytes FROM pg_stat_user_indexes
        WHERE relname IN ('places', 'places_open_kinds') ORDER BY relname, pg_relation_size(indexrelid) DESC`,
    );
    const io = await client.query<{ hit: string; read: string }>(
      `SELECT sum(coalesce(heap_blks_hit, 0) + coalesce(idx_blks_hit, 0)) AS hit,
              sum(coalesce(heap_blks_read, 0) + coalesce(idx_blks_read, 0)) AS read
         FROM pg_statio_user_tables WHERE relname IN ('places', 'places_open_kinds')`,
    );
    const settings = await client.query<{ name: string; setting: string }>(
      `SELECT name, current_setting(name) AS setting FROM unnest($1::text[]) AS name`,
      [MEMORY_SETTINGS],
    );
    return {
      settings: settings.rows.map((r) => `${r.name} ${r.setting}`).join(', '),
      table: Number(table.rows[0]!.bytes),
      openKinds: Number(table.rows[0]!.open_kinds),
      indexes: indexes.rows.map((r) => ({ name: r.name, bytes: Number(r.bytes) })),
      hit: Number(io.rows[0]?.hit ?? 0),
      read: Number(io.rows[0]?.read ?? 0),
    };
  } finally {
    await client.end();
  }
}

/** Resident and peak resident memory of a process (MB), from /proc. */
function memoryMb(pid: number): { rss: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

interface Measured {
  ready: Ready;
  loadAtStart: string;
  loadAtEnd: string;
  figures: Record<string, Awaited<ReturnType<typeof run>>>;
  open: Record<string, OpenFigures>;
  imported?: Imported;
  sizes?: Sizes;
  memory: { rss: number; peak: number };
}

/**
 * Rates of the open loop per scenario: given, or half the lowest closed-loop req/s among the sizes. At half of the
 * larger size's rate instead (the 1M set's, 30 November), 10M's (c) ran at 97% of its own throughput and its p99
 * was that size's queue, swinging 0.07–71× between runs.
 */
const rates: Record<string, number> = {};

function chooseRates(closed: readonly Record<string, { rps: number }>[]): void {
  for (const [scenario] of chosen) {
    const lowest = Math.min(...closed.map((figures) => figures[scenario]!.rps));
    rates[scenario] = fixedRate ?? Math.max(1, Math.round(lowest / 2));
  }
}

const only = process.env.PLACES_BENCH_ONLY; // e.g. "bc": only scenarios (b) and (c)
const chosen = Object.entries(scenarios).filter(([scenario]) => !only || only.includes(scenario[1]!));

/**
 * A size's server, ready to measure: its database generated (then exported and imported, timed) unless reused.
 * Searches are measured on a server that did not generate the places, as `cairn serve` after `cairn places
 * generate` is: the generating process's heap would put its garbage collector's pauses on the latencies.
 */
async function serve(count: number, name: string | undefined): Promise<Served> {
  const dbName = name ?? `${BENCH_PREFIX}bench_places`;
  const env = { PLACES_BENCH_COUNT: String(count), ...(name ? { PLACES_BENCH_DB: name } : {}) };
  let server = child('./places-server.ts', [], { ...env, PLACES_BENCH_CSV: csv });
  let ready = await firstJsonLine<Ready>(server);
  let imported: Imported | undefined;
  if (ready.generateMs !== null && ready.engine === 'postgres') {
    const generated = ready;
    server.kill('SIGTERM');
    await new Promise((ok) => server.once('exit', ok));
    imported = await importCsv();
    server = child('./places-server.ts', [], { ...env, PLACES_BENCH_REUSE: '1' });
    ready = {
      ...(await firstJsonLine<Ready>(server)),
      generateMs: generated.generateMs,
      exportMs: generated.exportMs,
    };
  } else if (ready.generateMs !== null) {
    imported = await importCsv(); // PGlite: the server keeps its in-memory database
  }
  if (cities.length === 0) ({ cities, restaurant } = ready);
  const headers = { authorization: `Bearer ${ready.key}`, 'x-places-api-version': '2025-06-17' };
  return { server, ready, headers, dbName, ...(imported ? { imported } : {}), loadAtStart: load() };
}

/** The exported CSV imported into a fresh database, as `cairn places import` does; the file is removed. */
async function importCsv(): Promise<Imported> {
  const importer = child('./places-import.ts', [csv], {});
  const imported = await firstJsonLine<Imported>(importer);
  await new Promise((ok) => importer.once('exit', ok));
  rmSync(csv, { force: true });
  return imported;
}

/** The closed loop of each scenario on one size (after a warm-up run: caches, JIT). */
async function closedLoop(served: Served): Promise<Record<string, Awaited<ReturnType<typeof run>>>> {
  if (served.ready.engine === 'postgres') served.before = await sizes(served.dbName);
  const figures: Record<string, Awaited<ReturnType<typeof run>>> = {};
  for (const [scenario, path] of chosen) {
    await run(served, path);
    figures[scenario] = await run(served, path);
  }
  return figures;
}

/** Seconds of open loop before each measured round, not counted: the size's pages back in the buffer cache. */
const WARM_UP_SECONDS = 2;

/**
 * The open loop in rounds. Each round, the scenarios take turns and every size is measured in each scenario's
 * turn, one after the other (the order reversed every other round), so that the sizes compared share the
 * machine's state of that minute: a stall of this shared machine spoils one round of one scenario of one size,
 * and a slow spell (a checkpoint, another process) falls on both sizes rather than on whichever was measured
 * then. Each measured phase follows WARM_UP_SECONDS of the same load, since the size measured just before has
 * filled PostgreSQL's buffer cache with its own pages.
 */
async function openRoundsInTurn(all: readonly Served[]): Promise<Map<Served, Record<string, OpenFigures[]>>> {
  const rounds = new Map(all.map((served) => [served, {} as Record<string, OpenFigures[]>]));
  for (let round = 0; round < openRounds; round++) {
    for (const [scenario, path] of chosen) {
      for (const served of round % 2 === 0 ? all : [...all].reverse()) {
        if (all.length > 1) await openLoop(served, path, rates[scenario]!, WARM_UP_SECONDS);
        (rounds.get(served)![scenario] ??= []).push(await openLoop(served, path, rates[scenario]!));
      }
    }
  }
  return rounds;
}

/** Each scenario's median round (by p99), with every round kept in order. */
function medianRounds(rounds: Record<string, OpenFigures[]>): Record<string, OpenFigures> {
  const open: Record<string, OpenFigures> = {};
  for (const [scenario, list] of Object.entries(rounds)) {
    const sorted = [...list].sort((x, y) => x.p99 - y.p99);
    open[scenario] = { ...sorted[Math.floor((sorted.length - 1) / 2)]!, rounds: list };
  }
  return open;
}

/** Stops a size's server, with its memory and its database's block reads over the scenarios. */
async function finish(
  served: Served,
  figures: Measured['figures'],
  rounds: Record<string, OpenFigures[]>,
): Promise<Measured> {
  const memory = memoryMb(served.server.pid!);
  const before = served.before;
  const after = before ? await sizes(served.dbName) : undefined;
  served.server.kill('SIGTERM');
  await new Promise((ok) => served.server.once('exit', ok));
  return {
    ready: served.ready,
    loadAtStart: served.loadAtStart,
    loadAtEnd: load(),
    figures,
    open: medianRounds(rounds),
    ...(served.imported ? { imported: served.imported } : {}),
    ...(before && after
      ? { sizes: { ...after, hit: after.hit - before.hit, read: after.read - before.read } }
      : {}),
    memory,
  };
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024).toLocaleString('en-US')} MB`;
const label = (count: number) => (count >= 1e6 ? `${count / 1e6}M` : `${count / 1e3}k`);

function print(m: Measured) {
  const { ready, figures, open, imported } = m;
  console.log(
    `places search benchmark — ${ready.engine}, ${ready.count.toLocaleString('en-US')} places, ${connections} connections, ${seconds} s per scenario, ${cpus().length} cores; load average at start ${m.loadAtStart}, at the end ${m.loadAtEnd}; the server's clock started at ${benchAt}`,
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
    `open loop, fixed rate (${fixedRate === undefined ? 'half the lowest closed-loop req/s among the sizes' : `${fixedRate}/s`}); latency from each request's due time; ${openRounds} rounds, the median round's figures; load generator ${priorityRaised ? `at nice ${generatorNiceness}` : 'at its default priority'}`,
  );
  console.log(
    'scenario                          rate/s  sent/s   p50 ms   p90 ms   p99 ms   max ms  send lag ms   load (1 min)   server: GC pauses, max, total ms   loop delay p99, max ms   in server p99, max ms   refaults',
  );
  const ms = (v: number) => v.toFixed(1).padStart(8);
  const line = (name: string, f: OpenFigures) =>
    `${name.padEnd(32)} ${String(f.rate).padStart(7)} ${String(Math.round(f.achieved)).padStart(7)} ${ms(f.p50)} ${ms(f.p90)} ${ms(f.p99)} ${ms(f.max)} ${f.lag.toFixed(1).padStart(12)} ${f.load.toFixed(2).padStart(14)} ${`${f.stalls.gc.count}, ${f.stalls.gc.maxMs.toFixed(1)}, ${f.stalls.gc.totalMs.toFixed(0)}`.padStart(34)} ${`${f.stalls.loopP99Ms.toFixed(1)}, ${f.stalls.loopMaxMs.toFixed(1)}`.padStart(24)} ${`${f.stalls.servedP99Ms.toFixed(1)}, ${f.stalls.servedMaxMs.toFixed(1)}`.padStart(23)} ${String(f.refaults).padStart(10)}`;
  for (const [name, f] of Object.entries(open)) {
    console.log(line(name, f));
    const rounds = f.rounds ?? [];
    if (rounds.length > 1) for (const [n, r] of rounds.entries()) console.log(line(`    round ${n + 1}`, r));
  }
  console.log(`server memory: ${m.memory.rss.toFixed(0)} MB resident, peak ${m.memory.peak.toFixed(0)} MB`);
  if (m.sizes) {
    const z = m.sizes;
    const total = z.table + z.openKinds + z.indexes.reduce((sum, x) => sum + x.bytes, 0);
    console.log(
      `places: table ${mb(z.table)}, places_open_kinds ${mb(z.openKinds)}, indexes ${z.indexes.map((x) => `${x.name} ${mb(x.bytes)}`).join(', ')}; ${mb(total)} in all`,
    );
    const reads = z.hit + z.read;
    console.log(
      `block reads during the scenarios: ${reads.toLocaleString('en-US')}, ${reads ? ((100 * z.read) / reads).toFixed(1) : '0'}% missed PostgreSQL's buffer cache (${z.settings})`,
    );
  }
}

const counts = (process.env.PLACES_BENCH_COUNTS ?? process.env.PLACES_BENCH_COUNT ?? '1000000')
  .split(',')
  .map((c) => Number(c.trim()));
if (counts.some((c) => !Number.isInteger(c) || c < 1)) {
  throw new Error('PLACES_BENCH_COUNTS: a comma list of whole numbers of places, e.g. 1000000,10000000');
}
if (counts.length > 1 && !process.env.DATABASE_URL) {
  throw new Error('PLACES_BENCH_COUNTS with several sizes needs PostgreSQL (DATABASE_URL)');
}
// Every size is generated (or reused) and served first; their servers then stay up together, the closed loops
// run size after size, and the open loop's rounds take every size in turn (openRoundsInTurn).
const servedAll: Served[] = [];
for (const count of counts) {
  servedAll.push(
    await serve(count, counts.length > 1 ? `${BENCH_PREFIX}${label(count).toLowerCase()}` : undefined),
  );
}
const closed = new Map<Served, Measured['figures']>();
for (const served of servedAll) closed.set(served, await closedLoop(served));
chooseRates([...closed.values()]);
const rounds = await openRoundsInTurn(servedAll);
const measured: Measured[] = [];
for (const served of servedAll) {
  const m = await finish(served, closed.get(served)!, rounds.get(served)!);
  print(m);
  measured.push(m);
}
rmSync(dir, { recursive: true, force: true });

if (measured.length > 1) {
  const [first] = measured;
  const sizesHead = measured.map((m) => label(m.ready.count).padStart(18)).join('');
  console.log(`\nside by side (open loop at the same rate for every size; ratio = last size / first)`);
  /** One line a scenario: a figure of each size, and the last size's over the first's. */
  const sideBySide = (
    title: string,
    value: (m: Measured, scenario: string) => number | undefined,
    rate = false,
  ) => {
    console.log(`${title.padEnd(32)} ${(rate ? 'rate/s' : '').padStart(7)}${sizesHead}   ratio`);
    for (const name of Object.keys(first!.open)) {
      const figures = measured.map((m) => value(m, name) ?? Number.NaN);
      console.log(
        `${name.padEnd(32)} ${(rate ? String(first!.open[name]!.rate) : '').padStart(7)}${figures.map((v) => v.toFixed(1).padStart(18)).join('')}   ${(figures[figures.length - 1]! / figures[0]!).toFixed(2)}×`,
      );
    }
  };
  sideBySide('p99 ms (open loop)', (m, name) => m.open[name]?.p99, true);
  // The rounds were taken in turn (openRoundsInTurn): round r of each size ran in the same minute.
  console.log(
    `${'p99 ratio in each round'.padEnd(32)} ${''.padStart(7)}   rounds in order, last size / first   median`,
  );
  for (const name of Object.keys(first!.open)) {
    const firstRounds = first!.open[name]?.rounds ?? [];
    const lastRounds = measured[measured.length - 1]!.open[name]?.rounds ?? [];
    const ratios = firstRounds.map((r, n) => (lastRounds[n]?.p99 ?? Number.NaN) / r.p99);
    const median =
      quantile(
        [...ratios].sort((x, y) => x - y),
        0.5,
      ) ?? Number.NaN;
    console.log(
      `${name.padEnd(32)} ${''.padStart(7)}   ${ratios
        .map((v) => `${v.toFixed(2)}×`)
        .join(' ')
        .padEnd(36)} ${median.toFixed(2)}×`,
    );
  }
  // The server's own p99, the median of the rounds': from the request's handler to its answer, leaving out the
  // time a request waited before the server read it and the load generator's own stalls on the shared cores.
  sideBySide('p99 ms in the server (open loop)', (m, name) =>
    quantile(
      (m.open[name]?.rounds ?? []).map((r) => r.stalls.servedP99Ms).sort((x, y) => x - y),
      0.5,
    ),
  );
  sideBySide('p99 ms (closed loop)', (m, name) => m.figures[name]?.p99);
  const row = (title: string, value: (m: Measured) => string) =>
    console.log(`${title.padEnd(40)}${measured.map((m) => value(m).padStart(18)).join('')}`);
  row('generate', (m) => (m.ready.generateMs === null ? 'reused' : s(m.ready.generateMs)));
  row('import', (m) => (m.imported ? s(m.imported.ms) : 'reused'));
  row('table', (m) => (m.sizes ? mb(m.sizes.table) : '-'));
  row('table places_open_kinds', (m) => (m.sizes ? mb(m.sizes.openKinds) : '-'));
  for (const index of first!.sizes?.indexes ?? []) {
    row(`index ${index.name}`, (m) => mb(m.sizes?.indexes.find((x) => x.name === index.name)?.bytes ?? 0));
  }
  row('buffer cache misses', (m) =>
    m.sizes ? `${((100 * m.sizes.read) / Math.max(1, m.sizes.hit + m.sizes.read)).toFixed(1)}%` : '-',
  );
  row('shared_buffers', (m) => m.sizes?.settings.match(/shared_buffers ([^,\s]+)/)?.[1] ?? '-');
  row('server resident memory', (m) => `${m.memory.rss.toFixed(0)} MB`);
  row('load average (start)', (m) => m.loadAtStart.split(' ')[0]!);
}
