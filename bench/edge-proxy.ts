// Benchmark: the edge data plane. Requests/s and p50/p99 latency of a benign browser GET sent directly
// to an origin and through the edge proxy (EDGE_PORT) in the same run, for three zones: WAF off (plain
// proxying), the new WAF (custom rules phase empty; the edge managed ruleset and the OWASP Core Ruleset
// at PL1 on the real CRS), and the previous WAF (zone waf on: the managed package and the OWASP package).
// Three processes on loopback: this one (autocannon), the origin, and the proxy (its own database).
// Prints medians over rounds and the through-proxy/direct ratios (paired per round).
//
// Run: npx tsx bench/edge-proxy.ts [seconds per run, default 5] [rounds, default 3] (DATABASE_URL=… for PostgreSQL)
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startChild } from './child.ts';
import { latencyPercentiles, report } from './report.ts';

const SELF = fileURLToPath(import.meta.url);
const EDGE_RULESET = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP_RULESET = '4814384a9e5d4991b9815dcfc25d2f1f';

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
  const zone = (name: string, plan: 'pro' | 'enterprise') =>
    edgeLib.createZone(edge.deps, {
      accountId: account.id,
      name: `${name}-${suffix}.bench.test`,
      plan,
      origin,
    });
  const off = await zone('off', 'pro');
  const fresh = await zone('new', 'enterprise');
  const legacy = await zone('legacy', 'pro');
  await db.query(`UPDATE edge_zones SET waf_migration_state = 'complete' WHERE id = $1`, [fresh.id]);
  const upgraded = await edgeLib.findZone(db, fresh.id);
  if (!upgraded) throw new Error('zone vanished');
  await edgeLib.putEntrypoint(edge.deps, upgraded, 'http_request_firewall_managed', {
    rules: [
      { action: 'execute', expression: 'true', action_parameters: { id: EDGE_RULESET } },
      {
        action: 'execute',
        expression: 'true',
        action_parameters: {
          id: OWASP_RULESET,
          overrides: {
            categories: [2, 3, 4].map((n) => ({ category: `paranoia-level-${n}`, enabled: false })),
          },
        },
      },
    ],
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

function child<T>(args: string[]): Promise<{ info: T; kill(): void }> {
  return startChild<T>(SELF, args);
}

interface Figure {
  rps: number;
  p50: number;
  p99: number;
  percentiles: Record<string, number>;
}

async function run(url: string, host: string, seconds: number): Promise<Figure> {
  const result = await autocannon({
    url: `${url}${PATH}`,
    headers: { ...BROWSER, host },
    connections: 32,
    duration: seconds,
    pipelining: 1,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(
      `${host}: ${result.non2xx} non-2xx (${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors`,
    );
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    percentiles: latencyPercentiles(result),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 5);
  const rounds = Number(process.argv[3] ?? 3);
  const origin = await child<{ port: number }>(['--origin']);
  const originUrl = `http://127.0.0.1:${origin.info.port}`;
  const proxy = await child<{ port: number; hosts: Record<'off' | 'new' | 'legacy', string> }>([
    '--proxy',
    originUrl,
  ]);
  const proxyUrl = `http://127.0.0.1:${proxy.info.port}`;
  const cases = {
    direct: { url: originUrl, host: 'shop.example.com' },
    'waf off': { url: proxyUrl, host: proxy.info.hosts.off },
    'new WAF PL1': { url: proxyUrl, host: proxy.info.hosts.new },
    'previous WAF': { url: proxyUrl, host: proxy.info.hosts.legacy },
  };
  type Case = keyof typeof cases;
  const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, [] as Figure[]])) as Record<
    Case,
    Figure[]
  >;
  try {
    for (const c of Object.values(cases)) await run(c.url, c.host, 2); // warm-up
    for (let round = 0; round < rounds; round++) {
      for (const [name, c] of Object.entries(cases) as [Case, (typeof cases)[Case]][])
        samples[name].push(await run(c.url, c.host, seconds));
    }
  } finally {
    proxy.kill();
    origin.kill();
  }
  const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  console.log(
    `edge proxy benchmark (${engine}): benign browser GET, 1 KB answer, 32 connections, ${rounds} rounds × ${seconds}s, medians`,
  );
  for (const [name, list] of Object.entries(samples) as [Case, Figure[]][]) {
    const rps = median(list.map((s) => s.rps));
    const ratios = list.map((s, i) => s.rps / (samples.direct[i] as Figure).rps);
    console.log(
      `  ${name.padEnd(13)} ${rps.toFixed(0).padStart(7)} req/s   p50 ${median(list.map((s) => s.p50))} ms   p99 ${median(
        list.map((s) => s.p99),
      )} ms${name === 'direct' ? '' : `   ${median(ratios).toFixed(2)}× direct`}`,
    );
    report({ kind: 'latency', bench: 'edge-proxy', name, percentiles: (list.at(-1) as Figure).percentiles });
    if (name !== 'direct') {
      report({
        bench: 'edge-proxy',
        name: `through the proxy, ${name}`,
        unit: 'req/s',
        ours: rps,
        peer: { name: 'straight to the origin', value: median(samples.direct.map((s) => s.rps)) },
        lowerIsBetter: false,
      });
    }
  }
}

if (process.argv[2] === '--origin') await serveOrigin();
else if (process.argv[2] === '--proxy') await serveProxy(process.argv[3] as string);
else await main();
