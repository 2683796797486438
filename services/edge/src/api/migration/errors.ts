import type { CairnError } from '@cairn/kit';
import type { Message } from '../envelope.ts';
import { edgeError, notEntitled } from '../errors.ts';
import { planLabel } from '../zones/plans.ts';
import type { Zone } from '../zones/store.ts';

/**
 * The WAF upgrade's errors and messages (codes are ours: the reference shows none). Errors refuse a
 * request and change nothing; messages ride along a successful answer (`messages` of the envelope).
 */
export const MIGRATION_CODES = {
  // errors
  uriOverrides: 10701,
  tooManyFirewallRules: 10702,
  expressionTooLong: 10703,
  alreadyUpgraded: 10704,
  phaseOneCriteria: 10705,
  previousWafGone: 10706,
  // messages
  notMigrated: 10710,
  migratedDisabled: 10711,
  dropped: 10712,
  limitAhead: 10713,
  noPreviousWaf: 10714,
  noLongerApplies: 10715,
  notInEffectYet: 10716,
  transition: 10717,
  ineligible: 10718,
} as const;

export const message = (code: number, text: string): Message => ({ code, message: text });

const ENTRYPOINT = (zone: Zone) =>
  `/zones/${zone.id}/rulesets/phases/http_request_firewall_managed/entrypoint`;

/** The one answer of every previous-WAF endpoint once the zone is upgraded (irreversible). */
export const previousWafGone = (zone: Zone): CairnError =>
  edgeError(
    400,
    MIGRATION_CODES.previousWafGone,
    `zone ${zone.name} uses the new WAF Managed Rules since ${zone.wafMigrationChangedAt.toISOString()}: the API of the previous version (WAF packages, groups, rules and overrides) no longer works. Use the Rulesets API: ${ENTRYPOINT(zone)}`,
  );

export const alreadyUpgraded = (zone: Zone): CairnError =>
  edgeError(
    409,
    MIGRATION_CODES.alreadyUpgraded,
    `zone ${zone.name} was already upgraded to the new WAF Managed Rules on ${zone.wafMigrationChangedAt.toISOString()}; the upgrade is irreversible. Change the configuration with the Rulesets API (PUT ${ENTRYPOINT(zone)} without waf_migration)`,
  );

export const validationNeedsEnterprise = (zone: Zone): CairnError =>
  notEntitled(
    `not entitled to the validation mode of the WAF upgrade (waf_migration=validation): it needs the Enterprise plan, and zone ${zone.name} is on ${planLabel(zone.plan)}. Upgrade with waf_migration=pending: the previous version is disabled when the new configuration is saved`,
  );

export const uriOverridesBlock = (zone: Zone, ids: readonly string[]): CairnError =>
  edgeError(
    400,
    MIGRATION_CODES.uriOverrides,
    `zone ${zone.name} cannot be upgraded: it has URI-based WAF overrides (${ids.join(', ')}), which the new WAF Managed Rules cannot express. Delete them first (DELETE /zones/${zone.id}/firewall/waf/overrides/{override_id}), then retry`,
  );

export const phaseOneRefused = (zone: Zone, reasons: readonly string[]): CairnError =>
  edgeError(
    400,
    MIGRATION_CODES.phaseOneCriteria,
    `zone ${zone.name} does not meet the phase 1 criteria of the WAF upgrade: ${reasons.join('; ')}. Add phase_two=1 to use the phase 2 procedure, which converts these`,
  );

const SUPPORT = 'The upgrade was not applied and nothing was changed; contact support to upgrade this zone.';

export const tooManyFirewallRules = (
  count: number,
  limit: number,
  rule: { id: string; description: string },
) =>
  edgeError(
    400,
    MIGRATION_CODES.tooManyFirewallRules,
    `The number of firewall rules to migrate exceeds ${limit}: this zone has ${count} firewall rules with Bypass > WAF Managed Rules, and firewall rule ${rule.id}${rule.description ? ` ("${rule.description}")` : ''} is number ${limit + 1}. ${SUPPORT}`,
  );

export const expressionTooLong = (bytes: number, limit: number, rule: { id: string; description: string }) =>
  edgeError(
    400,
    MIGRATION_CODES.expressionTooLong,
    `The length of a firewall rule expression is longer than 4 KB: firewall rule ${rule.id}${rule.description ? ` ("${rule.description}")` : ''} has an expression of ${bytes} bytes, and at most ${limit} bytes can be migrated. ${SUPPORT}`,
  );
