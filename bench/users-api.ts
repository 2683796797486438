// Benchmark: what resolving a service key costs. Compares, on one server over loopback, an open no-op route,
// the same route sent the same Authorization header (which it ignores), the same no-op behind the bearer check
// (identity's onRequest hook, as every bearer-protected API has it), and POST /users/managed-user/create.
// Target: the bearer check costs less than 5% of the open route's throughput (issue 19; 29% when filed).
// "The check" is the authenticated route against the open one sent the same header: that pair differs only by
// the check. Against the open route without the header, the figure also holds what Node's HTTP parser spends on
// one more header (2–3% of a no-op request): both are printed.
// Two measures:
// - throughput (autocannon, 32 connections), paired per round in rotating order, with the server's CPU time
//   per request (/proc/<pid>/stat). On two cores shared by client and server these swing between runs by more
//   than the check costs (2–13% on 29 November);
// - instructions per request: the server under valgrind's callgrind (bench/callgrind.ts), a fixed number of
//   requests per route. Steady to about 1% on the main thread whatever the machine's load; it needs valgrind
//   and PostgreSQL (DATABASE_URL: PGlite's WebAssembly takes minutes to start under valgrind). The server runs
//   about 40 times slower there, so its key cache lives 40 times as long (AUTH_CACHE_TTL_MS, at most 60 s):
//   the key is looked up about as often per request as at full speed. With the default 1 s, the lookups added
//   about 0.9% of a request's instructions on 29 November, which a server at full speed does not pay.
// Measured on 29 November, evening (2 cores, PostgreSQL, b72e094), main thread, instructions per request:
//   open 113,298; open sent the credential 115,440; authenticated 117,883: the check 2.1% (per round
//   0.6–2.4%, one round of six at 23% from a burst of garbage collection), the check and its header 4.0%.
//   With the default 1 s key cache under valgrind: 3.1% and 5.2%. Before b72e094, the product's async hook
//   and a promise per resolve, same 1 s cache: 5.0% and 7.5% (quiet rounds of four).
//   Throughput, the same evening (5 rounds × 8 s, server pinned): 37.4k req/s open, 37.4k authenticated;
//   the check's cost per round −7% to +13%, median 3.7%: the noise this count is there for.
// Run: DATABASE_URL=… npx tsx bench/users-api.ts [seconds per run, default 8] [rounds, default 5]
//      [requests per route and round under callgrind, default 5000; 0 skips it]
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { hasValgrind, underCallgrind } from './callgrind.ts';
import { latencyPercentiles, report } from './report.ts';

const seconds = Number(process.argv[2] ?? 8);
const rounds = Number(process.argv[3] ?? 5);
const callgrindRequests = Number(process.argv[4] ?? 5000);
const serverArgs = ['--import', 'tsx', fileURLToPath(new URL('./users-api-server.ts', import.meta.url))];

type Server = { port: number; key: string };

/** Waits for the server's one JSON line {port, key}. */
function ready(child: ChildProcess): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as Server);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

function targetsOf({ port, key }: Server) {
  const base = `http://127.0.0.1:${port}`;
  const auth = { authorization: `Bearer ${key}` };
  return {
    open: { url: `${base}/bench/open`, method: 'GET' as const, headers: {} },
    openSentCredential: { url: `${base}/bench/open`, method: 'GET' as const, headers: auth },
    authenticated: { url: `${base}/bench/authenticated`, method: 'GET' as const, headers: auth },
    create: {
      url: `${base}/users/managed-user/create?first_name=Bench`,
      method: 'POST' as const,
      headers: { ...auth, 'x-users-api-version': '2025-06-17', accept: 'application/json' },
    },
  };
}
type Target = { url: string; method: 'GET' | 'POST'; headers: Record<string, string> };
type NoOp = 'open' | 'openSentCredential' | 'authenticated';
/** The no-op routes in rotating order, so that a drift of the machine within a round counts against each alike. */
const ORDERS: readonly (readonly NoOp[])[] = [
  ['open', 'openSentCredential', 'authenticated'],
  ['authenticated', 'open', 'openSentCredential'],
  ['openSentCredential', 'authenticated', 'open'],
];

function check(target: Target, result: autocannon.Result) {
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${target.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const percent = (ratio: number) => `${((ratio - 1) * 100).toFixed(1)}%`;
const list = (xs: number[]) => xs.map((r) => r.toFixed(3)).join(', ');

// Throughput --------------------------------------------------------------------------------------------------
const server = spawn(process.execPath, serverArgs, {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: process.env,
});
// The server on a core of its own and this process (the load generator) on the others, where taskset is
// there: the two otherwise trade cores with each other and everything else.
const pinned =
  cpus().length >= 2 &&
  server.pid !== undefined &&
  spawnSync('taskset', ['-a', '-p', '-c', String(cpus().length - 1), String(server.pid)]).status === 0 &&
  spawnSync('taskset', ['-a', '-p', '-c', `0-${cpus().length - 2}`, String(process.pid)]).status === 0;
const targets = targetsOf(await ready(server));

/** The server's user + system CPU time in µs (clock ticks of 10 ms), or NaN where /proc is not there. */
function serverCpuUs(): number {
  try {
    const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
}

async function run(target: Target) {
  const cpuBefore = serverCpuUs();
  const result = await autocannon({ ...target, connections: 32, duration: seconds, pipelining: 1 });
  check(target, result);
  return {
    rps: result.requests.average,
    cpuUsPerRequest: (serverCpuUs() - cpuBefore) / result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    percentiles: latencyPercentiles(result),
  };
}

const samples: Record<keyof typeof targets, Awaited<ReturnType<typeof run>>[]> = {
  open: [],
  openSentCredential: [],
  authenticated: [],
  create: [],
};
await run(targets.authenticated); // warm-up: JIT and the key cache
for (let round = 0; round < rounds; round++) {
  for (const name of ORDERS[round % ORDERS.length]!) samples[name].push(await run(targets[name]));
}
// The creates after the no-op rounds, since each leaves work behind (new rows, garbage) that a run after it
// would pay for.
for (let round = 0; round < rounds; round++) samples.create.push(await run(targets.create));
server.kill('SIGTERM');

const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
console.log(`command: npx tsx bench/users-api.ts ${seconds} ${rounds} ${callgrindRequests}`);
console.log(
  `machine: ${cpus().length} cores, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(
  `users API benchmark on ${engine}: ${rounds} rounds × ${seconds}s, 32 connections, medians${pinned ? '; the server pinned to a core of its own' : ''}`,
);
for (const [name, runs] of Object.entries(samples)) {
  console.log(
    `  ${name.padEnd(19)} ${median(runs.map((s) => s.rps))
      .toFixed(0)
      .padStart(7)} req/s   server CPU ${median(runs.map((s) => s.cpuUsPerRequest))
      .toFixed(1)
      .padStart(
        6,
      )} µs/req   p50 ${median(runs.map((s) => s.p50))} ms   p99 ${median(runs.map((s) => s.p99))} ms`,
  );
}
// Paired per round, so machine noise between rounds cancels out.
for (const [baseline, what] of [
  ['openSentCredential', 'the bearer check'],
  ['open', 'the bearer check and its header'],
] as const) {
  const ratios = samples.authenticated.map((s, i) => samples[baseline][i]!.rps / s.rps);
  const cpu = samples.authenticated.map((s, i) => s.cpuUsPerRequest / samples[baseline][i]!.cpuUsPerRequest);
  console.log(
    `  ${what} (authenticated against ${baseline}): throughput cost ${percent(median(ratios))} (${baseline}/authenticated per round: ${list(ratios)}); CPU per request ${percent(median(cpu))} (per round: ${list(cpu)})`,
  );
}
report({
  bench: 'users-api',
  name: 'no-op route behind the bearer check (service key)',
  unit: 'req/s',
  ours: median(samples.authenticated.map((s) => s.rps)),
  peer: { name: 'the same route, open', value: median(samples.open.map((s) => s.rps)) },
  lowerIsBetter: false,
});
for (const [name, runs] of Object.entries(samples)) {
  report({ kind: 'latency', bench: 'users-api', name, percentiles: runs.at(-1)!.percentiles });
}

// Instructions ------------------------------------------------------------------------------------------------
if (callgrindRequests <= 0) {
  console.log('instructions per request: skipped (0 requests asked for)');
} else if (!hasValgrind()) {
  console.log('instructions per request: skipped (valgrind is not installed)');
} else if (!process.env.DATABASE_URL) {
  console.log(
    'instructions per request: skipped (needs DATABASE_URL: PGlite takes minutes to start under valgrind)',
  );
} else {
  const ttlMs = Math.min(60_000, 40 * Number(process.env.AUTH_CACHE_TTL_MS ?? 1000));
  const counted = underCallgrind(process.execPath, serverArgs, {
    ...process.env,
    AUTH_CACHE_TTL_MS: String(ttlMs),
  });
  try {
    const noOps = targetsOf(await ready(counted.child));
    const load = (target: Target, amount: number) =>
      // A long timeout: under valgrind a cold request can take seconds.
      autocannon({ ...target, connections: 32, amount, pipelining: 1, timeout: 120 }).then((r) =>
        check(target, r),
      );
    // Warm-up: the JIT's tiers come by counts, not time, so a fixed number of requests warms alike here.
    for (const name of ORDERS[0]!) await load(noOps[name], 3000);
    const counts: Record<NoOp, { main: number; all: number }[]> = {
      open: [],
      openSentCredential: [],
      authenticated: [],
    };
    const instructionRounds = Math.max(rounds, 6);
    for (let round = 0; round < instructionRounds; round++) {
      for (const name of ORDERS[round % ORDERS.length]!) {
        counted.zero();
        await load(noOps[name], callgrindRequests);
        const { main, all } = counted.count();
        counts[name].push({ main: main / callgrindRequests, all: all / callgrindRequests });
      }
    }
    console.log(
      `instructions per request, server under callgrind (key cache ${ttlMs / 1000} s): ${instructionRounds} rounds × ${callgrindRequests} requests per route, medians`,
    );
    for (const [name, runs] of Object.entries(counts)) {
      console.log(
        `  ${name.padEnd(19)} main thread ${median(runs.map((c) => c.main))
          .toFixed(0)
          .padStart(7)}   all threads ${median(runs.map((c) => c.all))
          .toFixed(0)
          .padStart(7)}`,
      );
    }
    for (const [baseline, what] of [
      ['openSentCredential', 'the bearer check'],
      ['open', 'the bearer check and its header'],
    ] as const) {
      const ratios = counts.authenticated.map((c, i) => c.main / counts[baseline][i]!.main);
      const ofMedians =
        median(counts.authenticated.map((c) => c.main)) / median(counts[baseline].map((c) => c.main));
      console.log(
        `  ${what} (authenticated against ${baseline}), main thread: ${percent(ofMedians)} more instructions per request (ratio of medians; per round: ${list(ratios)}; target < 5%, issue 19)`,
      );
    }
  } finally {
    counted.stop();
  }
}
