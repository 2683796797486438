import { MANAGED_PACKAGE_ID, packageRules } from '../../waf-legacy/catalogue.ts';
import type { Draft, MappingInput, MappingRow, RuleOverride } from './types.ts';

/** The legacy rule modes of the traditional package as the new ruleset's actions. */
const MODE_ACTIONS: Record<string, string> = { simulate: 'log', block: 'block', challenge: 'challenge' };

/**
 * The override that makes a managed rule behave like the legacy mode, or undefined when the rule already
 * does (an override must change something).
 */
function overrideFor(
  rule: { id: string; action: string; enabled: boolean },
  mode: string,
): RuleOverride | undefined {
  if (mode === 'default') return undefined;
  if (mode === 'disable') return rule.enabled ? { id: rule.id, enabled: false } : undefined;
  const action = MODE_ACTIONS[mode];
  if (action === undefined) return undefined;
  const out: RuleOverride = { id: rule.id };
  if (action !== rule.action) out.action = action;
  if (!rule.enabled) out.enabled = true;
  return Object.keys(out).length > 1 ? out : undefined;
}

function managedRule(input: MappingInput, id: string) {
  return input.catalogue.edge.rules().find((r) => r.id === id);
}

function put(draft: Draft, override: RuleOverride | undefined) {
  if (override) draft.managedOverrides.set(override.id, override);
}

/**
 * The CloudFlare package's group modes → rule overrides of the edge managed ruleset (reference §3,
 * proposed mapping 5): a group turned off disables each of its rules (`enabled: false`), whatever the
 * rules' own modes, as the previous WAF did.
 */
export const managedPackageGroupModes: MappingRow = {
  name: 'managedPackageGroupModes',
  row: 'Cloudflare managed package: group modes',
  apply(input, draft) {
    const off = new Set(
      [...input.legacy.managed.groupModes].filter(([, mode]) => mode === 'off').map(([id]) => id),
    );
    for (const legacyRule of packageRules(input.catalogue, MANAGED_PACKAGE_ID)) {
      if (!off.has(legacyRule.groupId)) continue;
      const rule = managedRule(input, legacyRule.newRuleId);
      if (rule) put(draft, overrideFor(rule, 'disable'));
    }
  },
};

/**
 * The CloudFlare package's rule modes → rule overrides of the edge managed ruleset: disable →
 * `enabled: false`; simulate → `action: "log"`; block → `"block"`; challenge → `"challenge"` (with
 * `enabled: true` for a rule the ruleset ships disabled). Rules of a group turned off stay disabled.
 */
export const managedPackageRuleModes: MappingRow = {
  name: 'managedPackageRuleModes',
  row: 'Cloudflare managed package: rule modes',
  apply(input, draft) {
    const groupsOff = new Set(
      [...input.legacy.managed.groupModes].filter(([, mode]) => mode === 'off').map(([id]) => id),
    );
    const legacyRules = new Map(packageRules(input.catalogue, MANAGED_PACKAGE_ID).map((r) => [r.id, r]));
    for (const [legacyId, mode] of input.legacy.managed.ruleModes) {
      const legacyRule = legacyRules.get(legacyId);
      if (!legacyRule || groupsOff.has(legacyRule.groupId)) continue;
      const rule = managedRule(input, legacyRule.newRuleId);
      if (rule) put(draft, overrideFor(rule, mode));
    }
  },
};
