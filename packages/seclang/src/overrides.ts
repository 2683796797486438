// Per-rule overrides from the API (what a managed-ruleset configuration holds): disable rules by
// id or tag, and change what a rule does when it matches.

import { idMatcher } from './actions/ctl.ts';
import type { RuleSet } from './engine/ruleset.ts';

/**
 * - `block`: the rule denies the request by itself (status 403), whatever the anomaly score;
 * - `log`: the rule is reported but adds nothing to the anomaly score and never disrupts;
 * - `default`: the rule as the CRS wrote it.
 */
export type RuleAction = 'block' | 'log' | 'default';

export interface RuleOverrides {
  /** Rule ids or ranges (`942100`, `'942100-942199'`). */
  disabledRules?: ReadonlyArray<number | string>;
  /** Tags, compared case-insensitively (`attack-sqli`, `paranoia-level/2`). */
  disabledTags?: readonly string[];
  ruleActions?: Readonly<Record<string, RuleAction>>;
}

export function applyOverrides(ruleset: RuleSet, overrides: RuleOverrides): void {
  if (overrides.disabledRules && overrides.disabledRules.length > 0) {
    const test = idMatcher(overrides.disabledRules.join(' '));
    ruleset.removeRules((r) => test(r.id));
  }
  if (overrides.disabledTags && overrides.disabledTags.length > 0) {
    const tags = new Set(overrides.disabledTags.map((t) => t.toLowerCase()));
    ruleset.removeRules((r) => r.tags.some((t) => tags.has(t.toLowerCase())));
  }
  for (const [id, action] of Object.entries(overrides.ruleActions ?? {})) {
    const rule = ruleset.findById(Number(id));
    if (!rule) throw new Error(`override for rule ${id}: no such rule`);
    if (action === 'block') {
      rule.disruptive = 'deny';
      rule.status ??= 403;
      rule.log = true;
    } else if (action === 'log') {
      rule.disruptive = 'pass';
      rule.suppressScore = true;
      rule.log = true;
    }
  }
}
