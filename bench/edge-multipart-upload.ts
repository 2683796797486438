// Benchmark: a 3 MB multipart/form-data photo upload through the edge proxy (issue 40, point 4), with the
// Cloudflare Managed Ruleset and the OWASP ruleset at its defaults (PL1; at threshold 5 CRS 920420 refuses
// the raw upload's content type), deployed through the Rulesets API.
// The proxy holds the multipart body whole (EDGE_WAF_MULTIPART_LIMIT), inspects it without the file's
// contents and forwards it; a raw upload of the photo (image/jpeg) streams through
// with its first 128 KiB inspected, the comparison. Prints, per kind, the median over rounds of the
// process CPU and wall time per request (client, proxy and origin share the process: the difference
// between the kinds is the proxy's), the peak of the process's ArrayBuffer memory while `concurrency`
// uploads are in flight, and the scanner alone (multipartView on the held 3 MB body).
//
// Run: npx tsx bench/edge-multipart-upload.ts [requests per round, default 20] [rounds, default 5] [concurrency, default 8]
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import {
  createApiToken,
  createEdge,
  createZone,
  edgeMigrations,
  ensureAccount,
  loadProxyConfig,
} from '@cairn/edge';
import { createTestDeps, serveOnLoopback } from '@cairn/kit/testing';
import { request } from 'undici';
import { multipartView } from '../services/edge/src/proxy/multipart-view.ts';

const perRound = Number(process.argv[2] ?? 20);
const rounds = Number(process.argv[3] ?? 5);
const concurrency = Number(process.argv[4] ?? 8);
const EDGE_RULESET = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP_RULESET = '4814384a9e5d4991b9815dcfc25d2f1f';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const origin = createServer((req, res) => {
  let n = 0;
  req.on('data', (c: Buffer) => (n += c.length));
  req.on('end', () => res.end(String(n)));
});
await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
const originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;

const deps = await createTestDeps(edgeMigrations, { env: { LOG_LEVEL: 'warn' } });
const edge = createEdge(deps, { crsDir: '/usr/share/modsecurity-crs' }, loadProxyConfig(process.env));
const server = await serveOnLoopback(deps, [edge.module]);
const proxy = await edge.startProxy({ port: 0, host: '127.0.0.1' });
const account = await ensureAccount(edge.deps, 'Bench');
const token = (
  await createApiToken(edge.deps, { accountId: account.id, name: 'b', zoneIds: ['*'], permissions: ['edit'] })
).secret;
const zone = await createZone(edge.deps, {
  accountId: account.id,
  name: 'uploads.bench.test',
  plan: 'enterprise',
  origin: originUrl,
});
await deps.db.query(`UPDATE edge_zones SET waf_migration_state = 'complete' WHERE id = $1`, [zone.id]);
const deployed = await fetch(
  `${server.baseUrl}/client/v4/zones/${zone.id}/rulesets/phases/http_request_firewall_managed/entrypoint`,
  {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      rules: [
        { action: 'execute', expression: 'true', action_parameters: { id: EDGE_RULESET } },
        {
          action: 'execute',
          expression: 'true',
          action_parameters: { id: OWASP_RULESET },
        },
      ],
    }),
  },
);
if (deployed.status !== 200) throw new Error(`deploying: ${deployed.status} ${await deployed.text()}`);

const BOUNDARY = '----WebKitFormBoundary7MA4YWxkTrZu0gW';
// random bytes without '$' and '<' (a random megabyte holds "${" and "<" sequences that the managed
// ruleset's body rules may take for a Log4j lookup or markup in the raw upload's inspected head)
const photo = randomBytes(3_000_000).map((b) => (b === 0x24 || b === 0x3c ? 0x23 : b));
const multipart = Buffer.concat([
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="caption"\r\n\r\nMe and Tom's dog at the beach\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="photo"; filename="IMG_0042.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  ),
  photo,
  Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
]);
const kinds: Record<string, { type: string; body: Uint8Array }> = {
  'multipart 3 MB': { type: `multipart/form-data; boundary=${BOUNDARY}`, body: multipart },
  'image/jpeg 3 MB': { type: 'image/jpeg', body: photo },
};

async function send(type: string, body: Uint8Array): Promise<void> {
  const res = await request(`${proxy.address}/upload`, {
    method: 'POST',
    headers: { host: zone.name, 'content-type': type, accept: '*/*', 'user-agent': 'bench/1.0' },
    body,
  });
  const text = await res.body.text();
  if (res.statusCode !== 200 || Number(text) !== body.length)
    throw new Error(`${type}: ${res.statusCode} ${text.slice(0, 200)}`);
}

async function round(type: string, body: Uint8Array) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  let peak = 0;
  const base = process.memoryUsage().arrayBuffers;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().arrayBuffers - base);
  }, 5);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < perRound) await send(type, body);
    }),
  );
  clearInterval(sampler);
  const used = process.cpuUsage(cpu);
  return {
    cpuMs: (used.user + used.system) / 1000 / perRound,
    wallMs: (performance.now() - start) / perRound,
    peakMb: peak / 1e6,
  };
}

for (const { type, body } of Object.values(kinds)) await send(type, body); // plan compiled, CRS loaded
const results: Record<string, { cpuMs: number[]; wallMs: number[]; peakMb: number[] }> = {};
for (let r = 0; r < rounds; r++)
  for (const [name, { type, body }] of Object.entries(kinds)) {
    const m = await round(type, body);
    results[name] ??= { cpuMs: [], wallMs: [], peakMb: [] };
    results[name].cpuMs.push(m.cpuMs);
    results[name].wallMs.push(m.wallMs);
    results[name].peakMb.push(m.peakMb);
  }

const scans: number[] = [];
for (let i = 0; i < 50; i++) {
  const t = performance.now();
  multipartView(multipart, kinds['multipart 3 MB']!.type, 131_072);
  scans.push(performance.now() - t);
}

console.log(
  `${perRound} uploads per round, ${rounds} rounds, ${concurrency} in flight; load ${loadavg()[0]?.toFixed(1)}`,
);
console.log('kind                 CPU ms/req  wall ms/req  peak ArrayBuffer MB');
for (const [name, r] of Object.entries(results))
  console.log(
    `${name.padEnd(20)} ${median(r.cpuMs).toFixed(1).padStart(10)}  ${median(r.wallMs).toFixed(1).padStart(11)}  ${median(r.peakMb).toFixed(1).padStart(8)}`,
  );
const mp = results['multipart 3 MB'];
const raw = results['image/jpeg 3 MB'];
if (mp && raw)
  console.log(`multipart / raw upload CPU: ${(median(mp.cpuMs) / median(raw.cpuMs)).toFixed(2)}×`);
console.log(`multipartView on the 3 MB body alone: median ${median(scans).toFixed(2)} ms`);
await proxy.close();
await server.close();
await deps.db.close();
origin.close();
