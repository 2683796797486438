import { describe, type MappingRow, migratedRule } from './types.ts';

/** A firewall rule that bypasses the previous WAF: action `bypass` with the product `waf`. */
export const bypassesWaf = (r: { action: string; products: string[] }) =>
  r.action === 'bypass' && r.products.includes('waf');

/**
 * Seed row "Firewall rules configured with Bypass > WAF Managed Rules" → a skip rule before the execute
 * rules (`ruleset: "current"`: the rest of the entry point, so the managed rulesets, is skipped for the
 * matching requests), with the firewall rule's expression as written (it is the same language), in the firewall rules' priority order
 * (lower number first, rules without priority last). A paused firewall rule becomes a disabled skip rule.
 */
export const firewallRulesWithBypassWafManagedRules: MappingRow = {
  name: 'firewallRulesWithBypassWafManagedRules',
  row: 'Firewall rules configured with Bypass > WAF Managed Rules',
  apply({ legacy }, draft) {
    for (const r of legacy.firewallRules.filter(bypassesWaf)) {
      draft.firewallSkips.push(
        migratedRule({
          action: 'skip',
          expression: r.expression,
          description: describe(
            `Migrated from firewall rule ${r.id} (Bypass > WAF Managed Rules)`,
            r.description,
          ),
          enabled: !r.paused,
          action_parameters: { ruleset: 'current' },
          logging: { enabled: true },
        }),
      );
    }
  },
};
