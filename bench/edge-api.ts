// Benchmark: the edge API's request validation and `cairn serve`'s start, this tree against a baseline
// checkout (another commit of Cairn, e.g. the one before a change to validation) in the same run.
//
// Throughput: one server per tree (child processes, each its own database), the same three calls on
// each in paired rounds (alternating order): a list with query parameters, a dry-run entry-point PUT
// whose body is 20 execute rules with overrides (body validation, no write), and a PATCH of a zone
// setting (a small body and a write). Start: `cairn serve` of each tree, started in turn, timed from
// spawn to its "Cairn is listening" line. Besides req/s and wall time, the server's own CPU time (from
// /proc/<pid>/stat) per request and to start: it holds still on a loaded machine where the others don't.
//
// Run: npx tsx bench/edge-api.ts <baseline dir> [seconds per run, default 5] [rounds, default 3] [starts, default 3]
// The baseline dir is a checkout with its own node_modules (symlinks to this tree's are enough, except
// node_modules/@cairn, whose links must point into the checkout).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startChild } from './child.ts';
import { report } from './report.ts';

const SELF = fileURLToPath(import.meta.url);
const HERE = resolve(fileURLToPath(new URL('..', import.meta.url)));
const OWASP_RULESET = '4814384a9e5d4991b9815dcfc25d2f1f';

interface ServerInfo {
  pid: number;
  port: number;
  token: string;
  zone: string;
}

/** The app with the edge service of the tree at `root`, a zone and a token (not listening). */
async function appOf(root: string) {
  const kit = (await import(join(root, 'packages/kit/src/index.ts'))) as typeof import('@cairn/kit');
  const edgeLib = (await import(join(root, 'services/edge/src/index.ts'))) as typeof import('@cairn/edge');
  const config = kit.loadConfig({
    ...process.env,
    LOG_LEVEL: 'warn',
    CAIRN_DATA_DIR: process.env.DATABASE_URL ? '' : mkdtempSync(join(tmpdir(), 'cairn-bench-api-')),
  });
  const db = await kit.openDb(config);
  const deps = {
    config,
    db,
    clock: kit.systemClock,
    log: kit.createLogger('warn'),
    metrics: kit.createMetrics(),
  };
  const edge = edgeLib.createEdge(deps, edgeLib.loadEdgeConfig());
  await kit.migrate(db, edge.module.migrations);
  const account = await edgeLib.ensureAccount(edge.deps, `Bench API ${Date.now()}`);
  const zone = await edgeLib.createZone(edge.deps, {
    accountId: account.id,
    name: `api-${Date.now().toString(36)}.bench.test`,
    plan: 'enterprise',
  });
  await db.query(`UPDATE edge_zones SET waf_migration_state = 'complete' WHERE id = $1`, [zone.id]);
  const { secret } = await edgeLib.createApiToken(edge.deps, {
    accountId: account.id,
    name: 'bench',
    zoneIds: ['*'],
    permissions: ['edit'],
  });
  const app = await kit.createApp(deps, [edge.module]);
  return { app, token: secret, zone: zone.id };
}

/** The app of the tree at `root` on a port; prints {pid, port, token, zone}. */
async function serve(root: string): Promise<void> {
  const { app, token, zone } = await appOf(root);
  await app.listen({ port: 0, host: '127.0.0.1' });
  console.log(
    JSON.stringify({ pid: process.pid, port: (app.server.address() as AddressInfo).port, token, zone }),
  );
}

/**
 * Both trees' apps in this one process, called with Fastify's inject (no sockets) in alternating
 * batches: the CPU time per request of each, paired batch by batch (the least noisy figure on a
 * loaded machine). Prints one JSON line {call: {this: µs[], baseline: µs[]}}.
 */
async function injectPaired(root: string, baseline: string, batches: number, size: number): Promise<void> {
  const apps = { this: await appOf(root), baseline: await appOf(baseline) };
  const out: Record<string, { this: number[]; baseline: number[] }> = {};
  const calls = (a: { token: string; zone: string }) => {
    const t = targets({ pid: 0, port: 0, token: a.token, zone: a.zone });
    return Object.fromEntries(
      Object.entries(t).map(([k, v]) => [
        k,
        {
          method: v.method,
          url: new URL(v.url).pathname + new URL(v.url).search,
          headers: v.headers,
          ...('body' in v ? { payload: v.body } : {}),
        },
      ]),
    );
  };
  const byTree = { this: calls(apps.this), baseline: calls(apps.baseline) };
  for (let b = -2; b < batches; b++) {
    const order = b % 2 === 0 ? (['this', 'baseline'] as const) : (['baseline', 'this'] as const);
    for (const call of Object.keys(byTree.this)) {
      for (const name of order) {
        const before = process.cpuUsage();
        for (let i = 0; i < size; i++) {
          const r = await apps[name].app.inject(byTree[name][call] as never);
          if (r.statusCode >= 300) throw new Error(`${name} ${call}: ${r.statusCode} ${r.body}`);
        }
        const used = process.cpuUsage(before);
        if (b < 0) continue; // warm-up batches
        out[call] ??= { this: [], baseline: [] };
        out[call]![name].push((used.user + used.system) / size);
      }
    }
  }
  console.log(JSON.stringify(out));
  process.exit(0);
}

const managedBody = JSON.stringify({
  rules: Array.from({ length: 20 }, (_, i) => ({
    action: 'execute',
    expression: `http.host eq "h${i}.example.com"`,
    description: `rule ${i}`,
    enabled: true,
    action_parameters: {
      id: OWASP_RULESET,
      version: 'latest',
      overrides: {
        action: 'log',
        categories: [2, 3, 4].map((n) => ({ category: `paranoia-level-${n}`, enabled: false })),
      },
    },
  })),
});

function targets(info: ServerInfo) {
  const base = `http://127.0.0.1:${info.port}/client/v4/zones/${info.zone}`;
  const headers = { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' };
  return {
    list: { url: `${base}/firewall/rules?page=1&per_page=50&paused=false`, method: 'GET' as const, headers },
    rules: {
      url: `${base}/rulesets/phases/http_request_firewall_managed/entrypoint?dry_run=true`,
      method: 'PUT' as const,
      headers,
      body: managedBody,
    },
    setting: {
      url: `${base}/settings/security_level`,
      method: 'PATCH' as const,
      headers,
      body: JSON.stringify({ value: 'medium' }),
    },
  };
}

/** The user + system CPU time of process `pid` in µs (clock ticks of 10 ms), or NaN without /proc. */
function cpuUs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
}

interface Sample {
  rps: number;
  cpuUsPerRequest: number;
}

async function run(target: autocannon.Options, pid: number, seconds: number): Promise<Sample> {
  const before = cpuUs(pid);
  const result = await autocannon({ ...target, connections: 16, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${target.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, cpuUsPerRequest: (cpuUs(pid) - before) / result.requests.total };
}

/**
 * Milliseconds from spawning `cairn serve` of the tree at `root` to its "Cairn is listening" line, and
 * the CPU time its process spent until then.
 */
function timeStart(root: string): Promise<{ ms: number; cpuMs: number }> {
  const started = performance.now();
  const proc = spawn(process.execPath, [join(root, 'apps/cli/bin/cairn.js'), 'serve'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: '0',
      EDGE_PORT: '0',
      LOG_LEVEL: 'warn',
      CAIRN_DATA_DIR: mkdtempSync(join(tmpdir(), 'cairn-bench-start-')),
    },
  });
  return new Promise((done, fail) => {
    let out = '';
    proc.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('Cairn is listening')) {
        const ms = performance.now() - started;
        const cpuMs = cpuUs(proc.pid ?? 0) / 1000;
        proc.kill('SIGTERM');
        done({ ms, cpuMs });
      }
    });
    let err = '';
    proc.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    proc.on('exit', (code) => fail(new Error(`cairn serve of ${root} exited with ${code}: ${out}${err}`)));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const [baselineArg, secondsArg, roundsArg, startsArg] = process.argv.slice(2);
  if (!baselineArg)
    throw new Error('usage: npx tsx bench/edge-api.ts <baseline dir> [seconds] [rounds] [starts]');
  const baseline = resolve(baselineArg);
  const seconds = Number(secondsArg ?? 5);
  const rounds = Number(roundsArg ?? 3);
  const starts = Number(startsArg ?? 3);
  const trees = { this: HERE, baseline };

  const starts_: Record<keyof typeof trees, { ms: number; cpuMs: number }[]> = { this: [], baseline: [] };
  for (let i = 0; i < starts; i++) {
    const order = i % 2 === 0 ? (['this', 'baseline'] as const) : (['baseline', 'this'] as const);
    for (const name of order) starts_[name].push(await timeStart(trees[name]));
  }

  const servers = {
    this: await startChild<ServerInfo>(SELF, ['serve', HERE]),
    baseline: await startChild<ServerInfo>(SELF, ['serve', baseline]),
  };
  const samples: Record<string, Record<keyof typeof trees, Sample[]>> = {};
  try {
    const calls = { this: targets(servers.this.info), baseline: targets(servers.baseline.info) };
    for (const name of ['this', 'baseline'] as const)
      for (const t of Object.values(calls[name])) await run(t, servers[name].info.pid, 1); // warm-up
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['this', 'baseline'] as const) : (['baseline', 'this'] as const);
      for (const call of Object.keys(calls.this) as (keyof typeof calls.this)[]) {
        samples[call] ??= { this: [], baseline: [] };
        for (const name of order)
          samples[call]![name].push(await run(calls[name][call], servers[name].info.pid, seconds));
      }
    }
  } finally {
    servers.this.kill();
    servers.baseline.kill();
  }

  // In one child process, both trees, inject batches: CPU µs per request, paired.
  const injected = await new Promise<Record<string, { this: number[]; baseline: number[] }>>((done, fail) => {
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', SELF, 'inject', baseline, String(rounds * 4), '100'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    proc.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    proc.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (code === 0 && line) done(JSON.parse(line));
      else fail(new Error(`inject run exited with ${code}: ${out}`));
    });
  });

  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(`machine: ${cpus().length} cores, load ${load}; baseline ${baseline}`);
  for (const key of ['ms', 'cpuMs'] as const) {
    const m = {
      this: median(starts_.this.map((x) => x[key])),
      baseline: median(starts_.baseline.map((x) => x[key])),
    };
    const what = key === 'ms' ? 'wall' : 'CPU';
    console.log(
      `cairn serve start, ${what} (median of ${starts}): this ${m.this.toFixed(0)} ms, baseline ${m.baseline.toFixed(0)} ms, ratio ${(m.this / m.baseline).toFixed(2)}`,
    );
    report({
      bench: 'edge-api',
      name: `cairn serve start (${what})`,
      unit: 'ms',
      ours: m.this,
      peer: { name: 'baseline checkout', value: m.baseline },
      lowerIsBetter: true,
    });
  }
  for (const [call, v] of Object.entries(injected)) {
    const m = { this: median(v.this), baseline: median(v.baseline) };
    const paired = median(v.this.map((x, i) => x / v.baseline[i]!));
    console.log(
      `${call} (inject, ${v.this.length} paired batches of 100): CPU per request this ${m.this.toFixed(0)} µs, baseline ${m.baseline.toFixed(0)} µs, median paired ratio ${paired.toFixed(2)}`,
    );
    report({
      bench: 'edge-api',
      name: `${call}: CPU per request (inject)`,
      unit: 'µs',
      ours: m.this,
      peer: { name: 'baseline checkout', value: m.baseline },
      lowerIsBetter: true,
    });
  }
  for (const [call, v] of Object.entries(samples)) {
    const rps = { this: median(v.this.map((x) => x.rps)), baseline: median(v.baseline.map((x) => x.rps)) };
    const cpu = {
      this: median(v.this.map((x) => x.cpuUsPerRequest)),
      baseline: median(v.baseline.map((x) => x.cpuUsPerRequest)),
    };
    console.log(
      `${call}: CPU per request this ${cpu.this.toFixed(0)} µs, baseline ${cpu.baseline.toFixed(0)} µs, ratio ${(cpu.this / cpu.baseline).toFixed(2)}; ` +
        `req/s this ${rps.this.toFixed(0)}, baseline ${rps.baseline.toFixed(0)}, ratio ${(rps.this / rps.baseline).toFixed(2)}`,
    );
    report({
      bench: 'edge-api',
      name: `${call}: server CPU per request`,
      unit: 'µs',
      ours: cpu.this,
      peer: { name: 'baseline checkout', value: cpu.baseline },
      lowerIsBetter: true,
    });
    report({
      bench: 'edge-api',
      name: `${call} throughput`,
      unit: 'req/s',
      ours: rps.this,
      peer: { name: 'baseline checkout', value: rps.baseline },
      lowerIsBetter: false,
    });
  }
}

if (process.argv[2] === 'serve') await serve(process.argv[3] ?? HERE);
else if (process.argv[2] === 'inject')
  await injectPaired(HERE, process.argv[3]!, Number(process.argv[4] ?? 20), Number(process.argv[5] ?? 100));
else await main();
