import type { ManagedRule } from '../managed/types.ts';

/** `action_parameters.overrides` of an `execute` rule, as stored. */
export interface ExecuteOverrides {
  action?: string;
  enabled?: boolean;
  categories?: { category: string; action?: string; enabled?: boolean }[];
  rules?: { id: string; action?: string; enabled?: boolean; score_threshold?: number }[];
}

export interface EffectiveRule {
  enabled: boolean;
  action: string;
  scoreThreshold?: number;
}

/** Reads the overrides object of stored action parameters, keeping only well-typed fields. */
export function readOverrides(params: Record<string, unknown> | undefined): ExecuteOverrides | undefined {
  const o = params?.overrides;
  if (!o || typeof o !== 'object') return undefined;
  return o as ExecuteOverrides;
}

/**
 * A managed rule's action and state under an execute rule's overrides. Precedence (reference §1.5): the
 * rule's own override, then category overrides (the last matching category wins), then the ruleset-wide
 * ones, then the rule as published. `rulesetAction: false` keeps the ruleset-wide action off a rule
 * (the OWASP score rules: a ruleset action applies to the anomaly rule only; see README).
 */
export function effectiveRule(
  rule: ManagedRule,
  overrides: ExecuteOverrides | undefined,
  rulesetAction = true,
): EffectiveRule {
  const out: EffectiveRule = {
    enabled: rule.enabled,
    action: rule.action,
    ...(rule.score_threshold === undefined ? {} : { scoreThreshold: rule.score_threshold }),
  };
  if (!overrides) return out;
  if (overrides.enabled !== undefined) out.enabled = overrides.enabled;
  if (overrides.action !== undefined && rulesetAction) out.action = overrides.action;
  for (const c of overrides.categories ?? []) {
    if (!rule.categories.includes(c.category)) continue;
    if (c.enabled !== undefined) out.enabled = c.enabled;
    if (c.action !== undefined) out.action = c.action;
  }
  const own = overrides.rules?.find((r) => r.id === rule.id);
  if (own) {
    if (own.enabled !== undefined) out.enabled = own.enabled;
    if (own.action !== undefined) out.action = own.action;
    if (own.score_threshold !== undefined) out.scoreThreshold = own.score_threshold;
  }
  return out;
}
