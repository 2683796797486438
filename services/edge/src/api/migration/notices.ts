import type { Message } from '../envelope.ts';
import type { PageRule } from '../page-rules/store.ts';
import type { Zone } from '../zones/store.ts';
import { MIGRATION_CODES, message } from './errors.ts';

const SKIP_HINT =
  'to exempt traffic from the new WAF Managed Rules, add a skip rule to the http_request_firewall_managed entry point';

/**
 * After the upgrade the previous WAF's switches are still accepted (clients keep working) but change
 * nothing; the answer says so (seed: "The page-rule setting Web Application Firewall: Off/On applies
 * only to the previous version").
 */
export function settingNotices(zone: Zone, settingId: string): Message[] {
  if (zone.wafMigrationState !== 'complete' || settingId !== 'waf') return [];
  return [
    message(
      MIGRATION_CODES.noLongerApplies,
      `the waf setting no longer affects anything: zone ${zone.name} uses the new WAF Managed Rules, which have no global on/off setting; deploy or disable each managed ruleset in the http_request_firewall_managed entry point (Rulesets API), and ${SKIP_HINT}`,
    ),
  ];
}

export function pageRuleNotices(zone: Zone, rule: Pick<PageRule, 'id' | 'actions'>): Message[] {
  if (zone.wafMigrationState !== 'complete') return [];
  const out: Message[] = [];
  if (rule.actions.some((a) => a.id === 'waf')) {
    out.push(
      message(
        MIGRATION_CODES.noLongerApplies,
        `the Web Application Firewall action of page rule ${rule.id} no longer affects anything: zone ${zone.name} uses the new WAF Managed Rules; ${SKIP_HINT}`,
      ),
    );
  }
  if (rule.actions.some((a) => a.id === 'disable_security')) {
    out.push(
      message(
        MIGRATION_CODES.noLongerApplies,
        `Disable Security in page rule ${rule.id} no longer turns off the WAF: zone ${zone.name} uses the new WAF Managed Rules; ${SKIP_HINT}`,
      ),
    );
  }
  return out;
}
