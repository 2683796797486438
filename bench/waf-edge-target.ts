// Cairn's edge as a user deploys it, for the differential harness (issue 40): the edge API and proxy on
// loopback, a trivial origin that answers 200, and one zone per paranoia level on which the new WAF is
// deployed through the Rulesets API (PUT …/http_request_firewall_managed/entrypoint): the edge Managed
// Ruleset and the OWASP Core Ruleset with the paranoia-level categories above the zone's off and the
// anomaly rule's score_threshold 5, action block. Prints {port, hosts: {"1": name, …}} once every zone's plan
// has compiled. Run as a child: npx tsx bench/waf-edge-target.ts [origin URL]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createApiToken,
  createEdge,
  createZone,
  edgeMigrations,
  ensureAccount,
  findZone,
  loadProxyConfig,
} from '@cairn/edge';
import { createTestDeps, serveOnLoopback } from '@cairn/kit/testing';

const EDGE_RULESET = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP_RULESET = '4814384a9e5d4991b9815dcfc25d2f1f';
const ANOMALY_RULE = '6179ae15870a4bb7b2d480d4843b323c';

async function trivialOrigin(): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('origin ok\n');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The managed entrypoint a user deploys for paranoia level `pl`, threshold 5, action block. */
export function managedEntrypoint(pl: number) {
  return {
    rules: [
      { action: 'execute', expression: 'true', action_parameters: { id: EDGE_RULESET } },
      {
        action: 'execute',
        expression: 'true',
        action_parameters: {
          id: OWASP_RULESET,
          overrides: {
            categories: [2, 3, 4]
              .filter((n) => n > pl)
              .map((n) => ({ category: `paranoia-level-${n}`, enabled: false })),
            rules: [{ id: ANOMALY_RULE, score_threshold: 5, action: 'block' }],
          },
        },
      },
    ],
  };
}

async function main(): Promise<void> {
  const origin = process.argv[2] ?? (await trivialOrigin());
  const deps = await createTestDeps(edgeMigrations, { env: { LOG_LEVEL: 'warn' } });
  const edge = createEdge(
    deps,
    { crsDir: '/usr/share/modsecurity-crs' },
    loadProxyConfig({ EDGE_WAF_TIME_BUDGET_MS: '10000', EDGE_EVENTS_SAMPLE_AFTER: '1000000' }),
  );
  const server = await serveOnLoopback(deps, [edge.module]);
  const proxy = await edge.startProxy({ port: 0, host: '127.0.0.1' });
  const account = await ensureAccount(edge.deps, 'Differential');
  const token = (
    await createApiToken(edge.deps, {
      accountId: account.id,
      name: 'harness',
      zoneIds: ['*'],
      permissions: ['edit'],
    })
  ).secret;
  const hosts: Record<string, string> = {};
  for (const pl of [1, 2, 3, 4]) {
    const created = await createZone(edge.deps, {
      accountId: account.id,
      name: `pl${pl}.differential.test`,
      plan: 'enterprise',
      origin,
    });
    // the upgrade to the new WAF is a separate flow (issue 40 is about what runs after it)
    await deps.db.query(`UPDATE edge_zones SET waf_migration_state = 'complete' WHERE id = $1`, [created.id]);
    const zone = await findZone(deps.db, created.id);
    if (!zone) throw new Error(`zone ${created.name} vanished`);
    const res = await fetch(
      `${server.baseUrl}/client/v4/zones/${zone.id}/rulesets/phases/http_request_firewall_managed/entrypoint`,
      {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(managedEntrypoint(pl)),
      },
    );
    if (res.status !== 200) throw new Error(`deploying PL${pl}: ${res.status} ${await res.text()}`);
    // compile the plan (and load the CRS) before the replay starts
    for (let i = 0; i < 600; i++) {
      const plan = await edge.engine.planFor(zone.id);
      if (plan?.crsProfiles.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    hosts[pl] = zone.name;
  }
  console.log(JSON.stringify({ port: proxy.port, hosts }));
}

await main();
