// The zone the edge benchmarks deploy the new WAF on (bench/edge-proxy.ts, bench/edge-events.ts,
// bench/cairn-workers.ts): one place, so every benchmark measures the same configuration.
import type { Zone } from '@cairn/edge';

type EdgeLib = typeof import('@cairn/edge');

const EDGE_RULESET = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP_RULESET = '4814384a9e5d4991b9815dcfc25d2f1f';

/**
 * A zone on the new WAF at paranoia level 1: Enterprise, its WAF upgrade complete, and in its
 * http_request_firewall_managed entrypoint the edge managed ruleset and the OWASP Core Ruleset with the
 * paranoia levels 2–4 off. `@cairn/edge` is loaded here (the benchmarks' parents never load it).
 */
export async function createPl1Zone(
  deps: Parameters<EdgeLib['putEntrypoint']>[0],
  input: { accountId: string; name: string; origin: string },
): Promise<Zone> {
  const edge = await import('@cairn/edge');
  const created = await edge.createZone(deps, { ...input, plan: 'enterprise' });
  await deps.db.query(`UPDATE edge_zones SET waf_migration_state = 'complete' WHERE id = $1`, [created.id]);
  const zone = await edge.findZone(deps.db, created.id);
  if (!zone) throw new Error(`zone ${input.name} vanished`);
  await edge.putEntrypoint(deps, zone, 'http_request_firewall_managed', {
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
  return zone;
}
