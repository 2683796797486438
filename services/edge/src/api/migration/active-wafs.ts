import type { Queryable } from '@cairn/kit';
import { type LegacyWafConfig, readLegacyWafConfig } from '../../legacy-config.ts';
import type { Catalogue } from '../../managed/catalogue.ts';
import type { StoredRule } from '../rulesets/model.ts';
import { findEntrypoint, findVersion } from '../rulesets/store.ts';
import type { Zone } from '../zones/store.ts';
import { MANAGED_PHASE, newWafEnabled, previousWafEnabled } from './service.ts';

/**
 * Which WAF implementations the data plane runs for a zone, in which order, with their configurations —
 * the semantics of the WAF upgrade in one answer:
 *
 * | migration_state | previous WAF            | new WAF (managed entry point) | order             |
 * | --------------- | ----------------------- | ----------------------------- | ----------------- |
 * | default         | no (Free: never had it) | yes                           | managed           |
 * | start           | yes (Pro and above)     | no (saved, not run)           | legacy            |
 * | validation      | yes                     | yes                           | managed, legacy   |
 * | complete        | no (irreversible)       | yes                           | managed           |
 *
 * Within the previous WAF, `legacy.config` still decides per request (the `waf` setting, page rules,
 * bypass firewall rules, package modes); within the new one, the entry point's rules do. Custom rules
 * (`http_request_firewall_custom`) are not part of either and always run.
 */
export interface ActiveWafs {
  legacy: { enabled: boolean; config: LegacyWafConfig };
  managed: { enabled: boolean; entrypoint: EntrypointRules | undefined };
  /** The order they run in: the new one first when both do. Only enabled ones are listed. */
  order: ('managed' | 'legacy')[];
}

export interface EntrypointRules {
  rulesetId: string;
  /** The latest version's number. */
  version: number;
  rules: StoredRule[];
}

/** The latest version of the zone's managed-phase entry point, or undefined when it has none. */
export async function managedEntrypoint(db: Queryable, zoneId: string): Promise<EntrypointRules | undefined> {
  const rs = await findEntrypoint(db, zoneId, MANAGED_PHASE);
  if (!rs || rs.version === 0) return undefined;
  const version = await findVersion(db, rs.id, rs.version);
  return version && { rulesetId: rs.id, version: rs.version, rules: version.rules };
}

/**
 * The data plane's question, "what runs for this zone?". Pass a fresh zone row (its migration state
 * moves only forward: start → validation → complete, or default → start on a plan change).
 */
export async function activeWafs(db: Queryable, catalogue: Catalogue, zone: Zone): Promise<ActiveWafs> {
  const legacyOn = previousWafEnabled(zone);
  const managedOn = newWafEnabled(zone);
  return {
    legacy: { enabled: legacyOn, config: await readLegacyWafConfig(db, catalogue, zone.id) },
    managed: { enabled: managedOn, entrypoint: managedOn ? await managedEntrypoint(db, zone.id) : undefined },
    order: [...(managedOn ? (['managed'] as const) : []), ...(legacyOn ? (['legacy'] as const) : [])],
  };
}
