import type { Configuration, Rule, RuleOverride } from './api.ts';

/** The managed rulesets of the catalogue (fixed ids, as the real service's are). */
export const EDGE_MANAGED_RULESET_ID = 'efb7b8c949ac4650a09736fc376e9aee';
export const OWASP_RULESET_ID = '4814384a9e5d4991b9815dcfc25d2f1f';
/** The OWASP ruleset's anomaly-score rule (CRS 949110): its action and score threshold are the ruleset's. */
export const OWASP_ANOMALY_RULE_ID = '6179ae15870a4bb7b2d480d4843b323c';

export const RULESET_NAMES: Record<string, string> = {
  [EDGE_MANAGED_RULESET_ID]: 'Cairn Managed Ruleset',
  [OWASP_RULESET_ID]: 'Cairn OWASP Core Ruleset',
};

/** The dashboard's names for the score thresholds (the real dashboard's). */
export const SCORE_THRESHOLDS = [
  { value: 60, label: 'Low – 60 and higher' },
  { value: 40, label: 'Medium – 40 and higher' },
  { value: 25, label: 'High – 25 and higher' },
] as const;
export const DEFAULT_SCORE_THRESHOLD = 40;
export const RULE_ACTIONS = ['block', 'managed_challenge', 'js_challenge', 'challenge', 'log'] as const;

const clone = <T>(value: T): T => structuredClone(value);

/** What to PUT: the rules without the server's ids, versions and refs (the entry point numbers them anew). */
export function bodyOf(config: Configuration): Configuration {
  return {
    name: config.name,
    ...(config.description ? { description: config.description } : {}),
    rules: config.rules.map(({ id: _id, version: _version, ref: _ref, ...rule }) => rule),
  };
}

export const isExecute = (rule: Rule, rulesetId?: string) =>
  rule.action === 'execute' && (rulesetId === undefined || rule.action_parameters?.id === rulesetId);

/** Paranoia level 1–4: the highest level whose `paranoia-level-N` category is not disabled. */
export function paranoiaLevelOf(rule: Rule): number {
  const off = new Set(
    (rule.action_parameters?.overrides?.categories ?? [])
      .filter((c) => c.enabled === false)
      .map((c) => c.category),
  );
  let level = 1;
  for (const n of [2, 3, 4]) if (!off.has(`paranoia-level-${n}`)) level = n;
  return level;
}

export function withParanoiaLevel(rule: Rule, level: number): Rule {
  const next = clone(rule);
  const params = (next.action_parameters ??= {});
  const overrides = (params.overrides ??= {});
  const others = (overrides.categories ?? []).filter((c) => !/^paranoia-level-[1-4]$/.test(c.category));
  const disabled = [2, 3, 4]
    .filter((n) => n > level)
    .map((n) => ({ category: `paranoia-level-${n}`, enabled: false }));
  overrides.categories = [...others, ...disabled];
  if (overrides.categories.length === 0) delete overrides.categories;
  return tidy(next);
}

const anomalyOverride = (rule: Rule) =>
  rule.action_parameters?.overrides?.rules?.find((o) => o.id === OWASP_ANOMALY_RULE_ID);

export const scoreThresholdOf = (rule: Rule) =>
  anomalyOverride(rule)?.score_threshold ?? DEFAULT_SCORE_THRESHOLD;
/** The OWASP ruleset's action is the anomaly rule's (block unless overridden). */
export const owaspActionOf = (rule: Rule) => anomalyOverride(rule)?.action ?? 'block';

export function withAnomalySetting(rule: Rule, change: { score_threshold?: number; action?: string }): Rule {
  const current = anomalyOverride(rule) ?? { id: OWASP_ANOMALY_RULE_ID };
  const merged: RuleOverride = { ...current, ...change };
  if (merged.score_threshold === DEFAULT_SCORE_THRESHOLD) delete merged.score_threshold;
  if (merged.action === 'block') delete merged.action;
  return withRuleOverride(rule, merged);
}

/** Adds or replaces the override of one rule; an override that changes nothing is removed. */
export function withRuleOverride(rule: Rule, override: RuleOverride): Rule {
  const next = clone(rule);
  const params = (next.action_parameters ??= {});
  const overrides = (params.overrides ??= {});
  const rest = (overrides.rules ?? []).filter((o) => o.id !== override.id);
  const changes = Object.keys(override).some((k) => k !== 'id');
  overrides.rules = changes ? [...rest, override] : rest;
  return tidy(next);
}

export const withoutRuleOverride = (rule: Rule, ruleId: string) => withRuleOverride(rule, { id: ruleId });

function tidy(rule: Rule): Rule {
  const overrides = rule.action_parameters?.overrides;
  if (overrides) {
    if (overrides.rules?.length === 0) delete overrides.rules;
    if (overrides.categories?.length === 0) delete overrides.categories;
    if (Object.keys(overrides).length === 0) delete rule.action_parameters!.overrides;
  }
  return rule;
}

export function replaceRule(config: Configuration, index: number, rule: Rule): Configuration {
  return { ...config, rules: config.rules.map((r, i) => (i === index ? rule : r)) };
}

/** One line saying what a rule of the entry point does. */
export function ruleSummary(rule: Rule): string {
  if (rule.action === 'skip') return 'Skip the managed rules for matching requests';
  if (rule.action === 'execute') {
    const id = rule.action_parameters?.id ?? '';
    return `Deploy ${RULESET_NAMES[id] ?? `ruleset ${id}`}`;
  }
  return rule.action;
}
