// Cairn's edge with the Cloudflare Managed Ruleset alone, at its defaults (no OWASP ruleset, no overrides),
// deployed through the Rulesets API as a user would, in front of the given origin (issue 40, point 5): for
// running sqlmap and wapiti through it. Prints {"port": N, "host": name} once the plan has compiled.
//
// Run: npx tsx bench/managed-ruleset-edge.ts http://127.0.0.1:18080 [port]

import {
  createApiToken,
  createEdge,
  createZone,
  edgeMigrations,
  ensureAccount,
  loadProxyConfig,
} from '@cairn/edge';
import { createTestDeps, serveOnLoopback } from '@cairn/kit/testing';

const EDGE_RULESET = 'efb7b8c949ac4650a09736fc376e9aee';
const origin = process.argv[2];
if (!origin) throw new Error('usage: managed-ruleset-edge.ts <origin URL> [port]');
const deps = await createTestDeps(edgeMigrations, { env: { LOG_LEVEL: 'warn' } });
const edge = createEdge(
  deps,
  { crsDir: '/usr/share/modsecurity-crs' },
  loadProxyConfig({ EDGE_EVENTS_SAMPLE_AFTER: '1000000' }),
);
const server = await serveOnLoopback(deps, [edge.module]);
const proxy = await edge.startProxy({ port: Number(process.argv[3] ?? 0), host: '127.0.0.1' });
const account = await ensureAccount(edge.deps, 'Managed ruleset');
const token = (
  await createApiToken(edge.deps, {
    accountId: account.id,
    name: 'bench',
    zoneIds: ['*'],
    permissions: ['edit'],
  })
).secret;
const zone = await createZone(edge.deps, {
  accountId: account.id,
  name: 'managed.bench.test',
  plan: 'pro',
  origin,
});
await deps.db.query(`UPDATE edge_zones SET waf_migration_state = 'complete' WHERE id = $1`, [zone.id]);
const res = await fetch(
  `${server.baseUrl}/client/v4/zones/${zone.id}/rulesets/phases/http_request_firewall_managed/entrypoint`,
  {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      rules: [{ action: 'execute', expression: 'true', action_parameters: { id: EDGE_RULESET } }],
    }),
  },
);
if (res.status !== 200) throw new Error(`deploying the Managed Ruleset: ${res.status} ${await res.text()}`);
for (let i = 0; i < 300 && !(await edge.engine.planFor(zone.id)); i++)
  await new Promise((r) => setTimeout(r, 100));
console.log(JSON.stringify({ port: proxy.port, host: zone.name, api: server.baseUrl }));
