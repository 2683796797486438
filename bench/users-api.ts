// Benchmark: what resolving a service key costs. Compares, on one server over loopback, an open no-op route,
// the same no-op behind the bearer check, and POST /users/managed-user/create. Target: the bearer check costs
// less than 5% of the open route's throughput (issue 19; 10% before it).
// Besides throughput, each run reads the server process's CPU time (/proc/<pid>/stat) and divides it by the
// requests served: CPU µs per request holds still on a loaded machine where req/s do not, so the bearer
// check's cost is also given as the extra CPU per request over the open route's (paired per round).
// Run: npx tsx bench/users-api.ts [seconds per run, default 8] [rounds, default 5] (DATABASE_URL=… for PostgreSQL)
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { latencyPercentiles, report } from './report.ts';

const seconds = Number(process.argv[2] ?? 8);
const rounds = Number(process.argv[3] ?? 5);
const server = spawn(
  process.execPath,
  ['--import', 'tsx', fileURLToPath(new URL('./users-api-server.ts', import.meta.url))],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
  },
);
// The server on a core of its own and this process (the load generator) on the others, where taskset is
// there: the two otherwise trade cores with each other and everything else, and a pair of runs differed by
// more than the check costs (2–13% between three runs of 11 rounds on 29 November).
const pinned =
  cpus().length >= 2 &&
  server.pid !== undefined &&
  spawnSync('taskset', ['-a', '-p', '-c', String(cpus().length - 1), String(server.pid)]).status === 0 &&
  spawnSync('taskset', ['-a', '-p', '-c', `0-${cpus().length - 2}`, String(process.pid)]).status === 0;
const { port, key } = await new Promise<{ port: number; key: string }>((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (c: Buffer) => {
    out += c.toString();
    const line = out.split('\n').find((l) => l.startsWith('{'));
    if (line) resolve(JSON.parse(line) as { port: number; key: string });
  });
  server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
});

const base = `http://127.0.0.1:${port}`;
const auth = { authorization: `Bearer ${key}` };
const targets = {
  open: { url: `${base}/bench/open`, method: 'GET' as const, headers: {} },
  authenticated: { url: `${base}/bench/authenticated`, method: 'GET' as const, headers: auth },
  create: {
    url: `${base}/users/managed-user/create?first_name=Bench`,
    method: 'POST' as const,
    headers: { ...auth, 'x-users-api-version': '2025-06-17', accept: 'application/json' },
  },
};

/** The server's user + system CPU time in µs (clock ticks of 10 ms), or NaN where /proc is not there. */
function serverCpuUs(): number {
  try {
    const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
}

async function run(target: (typeof targets)[keyof typeof targets]) {
  const cpuBefore = serverCpuUs();
  const result = await autocannon({ ...target, connections: 32, duration: seconds, pipelining: 1 });
  const cpuUsPerRequest = (serverCpuUs() - cpuBefore) / result.requests.total;
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${target.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    rps: result.requests.average,
    cpuUsPerRequest,
    p50: result.latency.p50,
    p99: result.latency.p99,
    percentiles: latencyPercentiles(result),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const samples: Record<keyof typeof targets, Awaited<ReturnType<typeof run>>[]> = {
  open: [],
  authenticated: [],
  create: [],
};

await run(targets.authenticated); // warm-up: JIT and the key cache
// The pairs first, in alternating order (open first in even rounds, the check first in odd ones), so that a
// drift of the machine within a round counts against each side alike; the creates after them, since each
// leaves work behind (new rows, garbage) that the run after it would pay for.
for (let round = 0; round < rounds; round++) {
  const pair = round % 2 === 0 ? (['open', 'authenticated'] as const) : (['authenticated', 'open'] as const);
  for (const name of pair) samples[name].push(await run(targets[name]));
}
for (let round = 0; round < rounds; round++) samples.create.push(await run(targets.create));
server.kill('SIGTERM');

const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
console.log(`command: npx tsx bench/users-api.ts ${seconds} ${rounds}`);
console.log(
  `machine: ${cpus().length} cores, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(
  `users API benchmark on ${engine}: ${rounds} rounds × ${seconds}s, 32 connections, medians${pinned ? '; the server pinned to a core of its own' : ''}`,
);
for (const [name, list] of Object.entries(samples)) {
  console.log(
    `  ${name.padEnd(14)} ${median(list.map((s) => s.rps))
      .toFixed(0)
      .padStart(7)} req/s   server CPU ${median(list.map((s) => s.cpuUsPerRequest))
      .toFixed(1)
      .padStart(
        6,
      )} µs/req   p50 ${median(list.map((s) => s.p50))} ms   p99 ${median(list.map((s) => s.p99))} ms`,
  );
}
// Paired per round (the two runs are back to back, in alternating order), so machine noise between rounds
// cancels out.
const ratios = samples.authenticated.map((s, i) => s.rps / samples.open[i]!.rps);
const ratio = median(ratios);
console.log(
  `  authenticated/open throughput, median of rounds: ${ratio.toFixed(3)} (per round: ${ratios.map((r) => r.toFixed(3)).join(', ')}); bearer check costs ${((1 - ratio) * 100).toFixed(1)}% (target < 5%, issue 19)`,
);
const cpuRatios = samples.authenticated.map((s, i) => s.cpuUsPerRequest / samples.open[i]!.cpuUsPerRequest);
console.log(
  `  authenticated/open server CPU per request, median of rounds: ${median(cpuRatios).toFixed(3)} (per round: ${cpuRatios.map((r) => r.toFixed(3)).join(', ')}); bearer check costs ${((median(cpuRatios) - 1) * 100).toFixed(1)}% more CPU per request`,
);
report({
  bench: 'users-api',
  name: 'no-op route behind the bearer check (service key)',
  unit: 'req/s',
  ours: median(samples.authenticated.map((s) => s.rps)),
  peer: { name: 'the same route, open', value: median(samples.open.map((s) => s.rps)) },
  lowerIsBetter: false,
});
for (const [name, list] of Object.entries(samples)) {
  report({ kind: 'latency', bench: 'users-api', name, percentiles: list.at(-1)!.percentiles });
}
