import { effectiveExpression } from './page-rule-pattern.ts';
import { describe, type MappingRow, migratedRule } from './types.ts';

/**
 * Seed row "Page rules configured with Disable Security" → a skip rule (`ruleset: "current"`) whose
 * expression is the page rule's URL pattern in the Rules language, minus the URLs of higher-priority
 * page rules (only one page rule acts on a request). A disabled page rule becomes a disabled skip rule.
 */
export const pageRulesWithDisableSecurity: MappingRow = {
  name: 'pageRulesWithDisableSecurity',
  row: 'Page rules configured with Disable Security',
  apply({ legacy }, draft) {
    legacy.pageRules.forEach((rule, rank) => {
      if (!rule.actions.some((a) => a.id === 'disable_security')) return;
      draft.pageRuleSkips.push({
        rank,
        rule: migratedRule({
          action: 'skip',
          expression: effectiveExpression(rule, legacy.pageRules),
          description: describe(`Migrated from page rule ${rule.id} (Disable Security)`, ''),
          enabled: rule.status === 'active',
          action_parameters: { ruleset: 'current' },
          logging: { enabled: true },
        }),
      });
    });
  },
};
