import type { Queryable } from '@cairn/kit';
import { findEntrypoint, findVersion } from '../api/rulesets/store.ts';

/**
 * Which WAF implementations run for a zone comes from the WAF upgrade (`api/migration/active-wafs.ts`):
 * start → the previous WAF; validation → both, the new one first; complete (and default: Free zones,
 * which never had the previous WAF) → the new one. Re-exported here so the engine has one import to swap.
 */
export { type ActiveWafs, activeWafs, type EntrypointRules } from '../api/migration/active-wafs.ts';

import type { EntrypointRules } from '../api/migration/active-wafs.ts';

/** The latest version of a phase's entry point (the custom rules phase), or undefined. */
export async function entrypointRules(
  db: Queryable,
  zoneId: string,
  phase: string,
): Promise<EntrypointRules | undefined> {
  const rs = await findEntrypoint(db, zoneId, phase);
  if (!rs || rs.version === 0) return undefined;
  const version = await findVersion(db, rs.id, rs.version);
  return version && { rulesetId: rs.id, version: rs.version, rules: version.rules };
}
