import type { CairnError } from '@cairn/kit';
import type { LegacyWafConfig } from '../../legacy-config.ts';
import type { Message } from '../envelope.ts';
import { atLeast } from '../zones/plans.ts';
import type { Zone } from '../zones/store.ts';
import { expressionTooLong, MIGRATION_CODES, message, tooManyFirewallRules } from './errors.ts';
import { bypassesWaf } from './mapping/firewall-rules-bypass-waf.ts';

/** The seed's limits: firewall rules migrated per zone, and the length of one firewall rule expression. */
export const MAX_MIGRATED_FIREWALL_RULES = 200;
export const MAX_FIREWALL_EXPRESSION_BYTES = 4096;

/**
 * The seed's eligibility table. Phase 2: any zone without URI-based WAF overrides. Phase 1 (without
 * `phase_two=1`), also: the WAF off, or on with the OWASP package off; no firewall rule bypassing the
 * WAF; no page rule with Disable Security or WAF On/Off (paused and disabled ones do nothing, and are
 * not counted). Zones below Pro never had the previous WAF: only the URI-override rule applies (they
 * cannot have any).
 */
export function eligibilityProblems(zone: Zone, legacy: LegacyWafConfig, phaseTwo: boolean): string[] {
  const problems: string[] = [];
  if (legacy.overrides.length > 0) {
    problems.push(
      `it has URI-based WAF overrides (${legacy.overrides.map((o) => o.id).join(', ')}); delete them first with DELETE /zones/${zone.id}/firewall/waf/overrides/{override_id}`,
    );
  }
  if (phaseTwo || !atLeast(zone.plan, 'pro')) return problems;
  if (legacy.wafOn && legacy.owasp.sensitivity !== 'off') {
    problems.push(
      `the WAF is on with the OWASP ModSecurity Core Rule Set enabled (sensitivity ${legacy.owasp.sensitivity}); phase 1 needs the WAF off, or on with only the Cloudflare managed rules`,
    );
  }
  const bypass = legacy.firewallRules.filter((r) => bypassesWaf(r) && !r.paused);
  if (bypass.length > 0) {
    problems.push(`firewall rules bypass the WAF managed rules (${bypass.map((r) => r.id).join(', ')})`);
  }
  const pageRules = legacy.pageRules.filter(
    (r) => r.status === 'active' && r.actions.some((a) => a.id === 'disable_security' || a.id === 'waf'),
  );
  if (pageRules.length > 0) {
    problems.push(
      `page rules disable security or turn the WAF on or off (${pageRules.map((r) => r.id).join(', ')})`,
    );
  }
  return problems;
}

/** The firewall rules the upgrade converts, in priority order. */
export const firewallRulesToMigrate = (zone: Zone, legacy: LegacyWafConfig) =>
  atLeast(zone.plan, 'pro') ? legacy.firewallRules.filter(bypassesWaf) : [];

/** The seed's failures "more than 200 firewall rules to migrate" and "an expression longer than 4 KB". */
export function limitError(zone: Zone, legacy: LegacyWafConfig): CairnError | undefined {
  const rules = firewallRulesToMigrate(zone, legacy);
  if (rules.length > MAX_MIGRATED_FIREWALL_RULES) {
    return tooManyFirewallRules(
      rules.length,
      MAX_MIGRATED_FIREWALL_RULES,
      rules[MAX_MIGRATED_FIREWALL_RULES]!,
    );
  }
  for (const r of rules) {
    const bytes = Buffer.byteLength(r.expression, 'utf8');
    if (bytes > MAX_FIREWALL_EXPRESSION_BYTES)
      return expressionTooLong(bytes, MAX_FIREWALL_EXPRESSION_BYTES, r);
  }
  return undefined;
}

/** The same, as a warning in the check and config answers (the upgrade itself will fail). */
export function limitWarning(zone: Zone, legacy: LegacyWafConfig): Message | undefined {
  const error = limitError(zone, legacy);
  return error && message(MIGRATION_CODES.limitAhead, `the upgrade will fail: ${error.message}`);
}
