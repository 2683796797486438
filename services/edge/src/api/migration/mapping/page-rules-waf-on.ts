import { MIGRATION_CODES, message } from '../errors.ts';
import { effectiveExpression } from './page-rule-pattern.ts';
import { describe, type MappingRow } from './types.ts';

/**
 * Seed row "Page rules configured with Web Application Firewall: On". With the zone's `waf` setting off,
 * the managed rulesets run only where such page rules apply: one conditional execute rule per deployed
 * managed ruleset and page rule, on the page rule's URLs minus those of higher-priority page rules. With
 * the setting on, the page rule changes nothing and is not converted (it still keeps lower-priority
 * page rules from applying to its URLs, which their expressions account for).
 */
export const pageRulesWithWafOn: MappingRow = {
  name: 'pageRulesWithWafOn',
  row: 'Page rules configured with Web Application Firewall: On',
  apply({ legacy }, draft) {
    const wafOn = legacy.pageRules.filter((r) => r.actions.some((a) => a.id === 'waf' && a.value === 'on'));
    if (wafOn.length === 0) return;
    if (legacy.wafOn) {
      for (const r of wafOn) {
        draft.messages.push(
          message(
            MIGRATION_CODES.dropped,
            `page rule ${r.id} (Web Application Firewall: On) is not converted: the zone's waf setting is already on, so the managed rulesets run everywhere`,
          ),
        );
      }
      return;
    }
    draft.deployment = {
      kind: 'conditional',
      where: wafOn.map((r) => ({
        expression: effectiveExpression(r, legacy.pageRules),
        enabled: r.status === 'active',
        description: describe(`Migrated from page rule ${r.id} (Web Application Firewall: On)`, ''),
      })),
    };
  },
};
