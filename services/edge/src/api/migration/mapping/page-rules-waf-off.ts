import { effectiveExpression } from './page-rule-pattern.ts';
import { describe, type MappingRow, migratedRule } from './types.ts';

/**
 * Seed row "Page rules configured with Web Application Firewall: Off" → a skip rule
 * (`ruleset: "current"`) on the page rule's URLs, minus those of higher-priority page rules. (A page rule
 * with Disable Security as well is converted once, by that row.)
 */
export const pageRulesWithWafOff: MappingRow = {
  name: 'pageRulesWithWafOff',
  row: 'Page rules configured with Web Application Firewall: Off',
  apply({ legacy }, draft) {
    legacy.pageRules.forEach((rule, rank) => {
      const wafOff = rule.actions.some((a) => a.id === 'waf' && a.value === 'off');
      if (!wafOff || rule.actions.some((a) => a.id === 'disable_security')) return;
      draft.pageRuleSkips.push({
        rank,
        rule: migratedRule({
          action: 'skip',
          expression: effectiveExpression(rule, legacy.pageRules),
          description: describe(`Migrated from page rule ${rule.id} (Web Application Firewall: Off)`, ''),
          enabled: rule.status === 'active',
          action_parameters: { ruleset: 'current' },
          logging: { enabled: true },
        }),
      });
    });
  },
};
