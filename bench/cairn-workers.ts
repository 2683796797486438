// 1 worker against N (issue 16, point 2), for bench/edge-proxy.ts: the real `cairn serve` on PostgreSQL
// twice at once (different ports, one database), with CAIRN_WORKERS=1 and CAIRN_WORKERS=auto (one per
// core), through the edge proxy to the benchmark's origin for a zone with the WAF off and one with the new
// WAF at PL1. Paired rounds: each round measures both servers (in alternating order), the ratio N/1 is
// taken within the round. Needs DATABASE_URL (workers need PostgreSQL).
import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createPl1Zone } from './edge-zone.ts';
import { report } from './report.ts';

const CLI = fileURLToPath(new URL('../apps/cli/bin/cairn.js', import.meta.url));

interface Serve {
  child: ChildProcess;
  proxy: string;
  stop(): Promise<void>;
}

/** `cairn serve` with CAIRN_WORKERS=`workers`, once it prints its proxy address (after every worker serves). */
function startServe(workers: string, databaseUrl: string): Promise<Serve> {
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      CAIRN_WORKERS: workers,
      PORT: '0',
      EDGE_PORT: '0',
      LOG_LEVEL: 'warn',
      PLACES_DEMO_COUNT: '0',
      // as bench/edge-proxy.ts's own proxy: a loaded machine must not fail-close benign requests
      EDGE_WAF_TIME_BUDGET_MS: process.env.EDGE_WAF_TIME_BUDGET_MS ?? '1000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const proxy = /proxy .* is listening on (http:\/\/[\d.]+:\d+)/.exec(out)?.[1];
      if (proxy)
        resolve({
          child,
          proxy,
          stop: async () => {
            child.kill('SIGTERM');
            await exited;
          },
        });
    });
    child.once('exit', (code) =>
      reject(new Error(`cairn serve (CAIRN_WORKERS=${workers}) exited with ${code}:\n${out}`)),
    );
  });
}

/** Two zones on `origin` in the database: WAF off, and the new WAF at PL1. Returns their names. */
async function zones(databaseUrl: string, origin: string): Promise<{ off: string; pl1: string }> {
  const kit = await import('@cairn/kit');
  const edgeLib = await import('@cairn/edge');
  const db = kit.openPostgres(databaseUrl);
  try {
    const deps = { db, clock: kit.systemClock, log: kit.createLogger('warn') };
    const edge = edgeLib.createEdge(deps);
    await kit.migrate(db, edge.module.migrations);
    const account = await edgeLib.ensureAccount(edge.deps, `Bench workers ${Date.now()}`);
    const suffix = Date.now().toString(36);
    const off = await edgeLib.createZone(edge.deps, {
      accountId: account.id,
      name: `workers-off-${suffix}.bench.test`,
      plan: 'pro',
      origin,
    });
    const fresh = await createPl1Zone(edge.deps, {
      accountId: account.id,
      name: `workers-pl1-${suffix}.bench.test`,
      origin,
    });
    return { off: off.name, pl1: fresh.name };
  } finally {
    await db.close();
  }
}

/** Runs `once` until it resolves with some throughput (at most 10 times). */
async function warm(once: () => Promise<{ rps: number }>): Promise<void> {
  let last: unknown;
  for (let i = 0; i < 10; i++) {
    try {
      if ((await once()).rps > 0) return;
    } catch (error) {
      last = error;
    }
  }
  throw new Error(`the proxy did not answer after 10 warm-up runs: ${String(last)}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/**
 * The "1 worker vs N workers" rows: for each zone, the medians of both and the median of the paired
 * ratios. `run` is the caller's load generator (the same one as its other rows).
 */
export async function workersRows(
  origin: string,
  seconds: number,
  rounds: number,
  run: (url: string, host: string, seconds: number) => Promise<{ rps: number }>,
): Promise<string[]> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) return ['not measured: workers need PostgreSQL (run with DATABASE_URL=…)'];
  const hosts = await zones(databaseUrl, origin);
  const n = availableParallelism();
  const one = await startServe('1', databaseUrl);
  let many: Serve | undefined;
  try {
    many = await startServe('auto', databaseUrl);
    const servers = { one, many };
    const lines: string[] = [];
    for (const [label, host] of [
      ['WAF off', hosts.off],
      ['new WAF PL1', hosts.pl1],
    ] as const) {
      // warm-up: every worker compiles the zone's plan (and loads the CRS, seconds on a loaded machine) on
      // its first requests; until then requests time out — repeat until a run is clean
      for (const s of Object.values(servers)) await warm(() => run(s.proxy, host, 3));
      const samples = { one: [] as number[], many: [] as number[] };
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? (['one', 'many'] as const) : (['many', 'one'] as const);
        for (const k of order) samples[k].push((await run(servers[k].proxy, host, seconds)).rps);
      }
      const ratios = samples.many.map((v, i) => v / (samples.one[i] as number));
      report({
        bench: 'edge-proxy',
        name: `cairn serve, ${label}, ${n} workers (against 1)`,
        unit: 'req/s',
        ours: median(samples.many),
        peer: { name: 'cairn serve, 1 worker', value: median(samples.one) },
        lowerIsBetter: false,
      });
      lines.push(
        `${label}: 1 worker ${median(samples.one).toFixed(0)} req/s, ${n} workers ${median(samples.many).toFixed(0)} req/s, ` +
          `${median(ratios).toFixed(2)}× (paired rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
      );
    }
    return lines;
  } finally {
    await Promise.all([one.stop(), many?.stop()]);
  }
}
