// Benchmark: the edge API's request validation and `cairn serve`'s start, this tree against a baseline
// checkout (another commit of Cairn, e.g. the one before a change to validation) in the same run.
//
// Throughput: one server per tree (child processes, each its own database), the same three calls on
// each in paired rounds (alternating order): a list with query parameters, a dry-run entry-point PUT
// whose body is 20 execute rules with overrides (body validation, no write), and a PATCH of a zone
// setting (a small body and a write). Start: `cairn serve` of each tree, started in turn, timed from
// spawn to its "Cairn is listening" line.
//
// Run: npx tsx bench/edge-api.ts <baseline dir> [seconds per run, default 5] [rounds, default 3] [starts, default 3]
// The baseline dir is a checkout with its own node_modules (symlinks to this tree's are enough, except
// node_modules/@cairn, whose links must point into the checkout).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
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
  port: number;
  token: string;
  zone: string;
}

/** The app with the edge service of the tree at `root`, a zone and a token; prints {port, token, zone}. */
async function serve(root: string): Promise<void> {
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
  await app.listen({ port: 0, host: '127.0.0.1' });
  console.log(
    JSON.stringify({ port: (app.server.address() as AddressInfo).port, token: secret, zone: zone.id }),
  );
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

async function rps(target: autocannon.Options, seconds: number): Promise<number> {
  const result = await autocannon({ ...target, connections: 16, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${target.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

/** Milliseconds from spawning `cairn serve` of the tree at `root` to its "Cairn is listening" line. */
function timeStart(root: string): Promise<number> {
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
        proc.kill('SIGTERM');
        done(ms);
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

  const startMs: Record<keyof typeof trees, number[]> = { this: [], baseline: [] };
  for (let i = 0; i < starts; i++) {
    const order = i % 2 === 0 ? (['this', 'baseline'] as const) : (['baseline', 'this'] as const);
    for (const name of order) startMs[name].push(await timeStart(trees[name]));
  }

  const servers = {
    this: await startChild<ServerInfo>(SELF, ['serve', HERE]),
    baseline: await startChild<ServerInfo>(SELF, ['serve', baseline]),
  };
  const samples: Record<string, Record<keyof typeof trees, number[]>> = {};
  try {
    const calls = { this: targets(servers.this.info), baseline: targets(servers.baseline.info) };
    for (const name of ['this', 'baseline'] as const)
      for (const t of Object.values(calls[name])) await rps(t, 1); // warm-up: JIT, caches
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['this', 'baseline'] as const) : (['baseline', 'this'] as const);
      for (const call of Object.keys(calls.this) as (keyof typeof calls.this)[]) {
        samples[call] ??= { this: [], baseline: [] };
        for (const name of order) samples[call]![name].push(await rps(calls[name][call], seconds));
      }
    }
  } finally {
    servers.this.kill();
    servers.baseline.kill();
  }

  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(`machine: ${cpus().length} cores, load ${load}; baseline ${baseline}`);
  const s = { this: median(startMs.this), baseline: median(startMs.baseline) };
  console.log(
    `cairn serve start (median of ${starts}): this ${s.this.toFixed(0)} ms, baseline ${s.baseline.toFixed(0)} ms, ratio ${(s.this / s.baseline).toFixed(2)}`,
  );
  report({
    bench: 'edge-api',
    name: 'cairn serve start',
    unit: 'ms',
    ours: s.this,
    peer: { name: 'baseline checkout', value: s.baseline },
    lowerIsBetter: true,
  });
  for (const [call, v] of Object.entries(samples)) {
    const m = { this: median(v.this), baseline: median(v.baseline) };
    console.log(
      `${call}: this ${m.this.toFixed(0)} req/s, baseline ${m.baseline.toFixed(0)} req/s, ratio ${(m.this / m.baseline).toFixed(2)} (rounds: this ${v.this.map((x) => x.toFixed(0)).join(' ')}; baseline ${v.baseline.map((x) => x.toFixed(0)).join(' ')})`,
    );
    report({
      bench: 'edge-api',
      name: `${call} throughput`,
      unit: 'req/s',
      ours: m.this,
      peer: { name: 'baseline checkout', value: m.baseline },
      lowerIsBetter: false,
    });
  }
}

if (process.argv[2] === 'serve') await serve(process.argv[3] ?? HERE);
else await main();
