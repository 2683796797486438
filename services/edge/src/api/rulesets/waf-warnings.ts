import { type Catalogue, OWASP_RULESET_ID } from '../../managed/catalogue.ts';
import { ANOMALY_RULE_ID } from '../../managed/owasp.ts';
import type { Message } from '../envelope.ts';

/** The code of the warnings below in the envelope's `messages` (our own; the real API's codes for these are not public). */
export const WAF_WARNING_CODE = 20500;

interface ExecuteRule {
  action?: string;
  enabled?: boolean;
  action_parameters?: { id?: unknown; overrides?: Overrides };
}

interface Overrides {
  action?: string;
  enabled?: boolean;
  categories?: { category: string; action?: string; enabled?: boolean }[];
  rules?: { id: string; action?: string; enabled?: boolean; score_threshold?: number }[];
}

const PARANOIA_LEVELS = ['paranoia-level-1', 'paranoia-level-2', 'paranoia-level-3', 'paranoia-level-4'];

/**
 * True when the overrides disable every paranoia-level category of the OWASP Core Ruleset and enable no
 * rule back by id: the execute rule would stay enabled and never match. Refused (a 400 at the write).
 */
export function disablesEveryParanoiaLevel(overrides: Overrides | undefined): boolean {
  if (!overrides?.categories) return false;
  const off = new Set(overrides.categories.filter((c) => c.enabled === false).map((c) => c.category));
  return PARANOIA_LEVELS.every((pl) => off.has(pl)) && !overrides.rules?.some((r) => r.enabled === true);
}

/**
 * Warnings for an entry point that deploys the OWASP Core Ruleset so that it can never block: the
 * anomaly rule (949110) only logs or is disabled, or its threshold is above the score every enabled rule
 * together could add. The configuration is kept (a log-only WAF is a legitimate first step); the answer
 * says what it does.
 */
export function wafWarnings(rules: readonly ExecuteRule[], catalogue: Catalogue): Message[] {
  const out: Message[] = [];
  rules.forEach((rule, i) => {
    const params = rule.action_parameters;
    if (rule.action !== 'execute' || rule.enabled === false || params?.id !== OWASP_RULESET_ID) return;
    const overrides = params.overrides;
    if (overrides?.enabled === false) return;
    const anomaly = overrides?.rules?.find((r) => r.id === ANOMALY_RULE_ID);
    const say = (what: string) =>
      out.push({
        code: WAF_WARNING_CODE,
        message: `rules[${i}]: the OWASP Core Ruleset can never block: ${what}`,
      });
    const action = anomaly?.action ?? overrides?.action ?? 'block';
    if (anomaly?.enabled === false) say(`its anomaly-score rule ${ANOMALY_RULE_ID} (949110) is disabled`);
    else if (action === 'log')
      say(`its anomaly-score rule ${ANOMALY_RULE_ID} (949110) only logs (action "log")`);
    const threshold = anomaly?.score_threshold;
    if (threshold === undefined) return;
    const reachable = reachableScore(catalogue, overrides);
    if (reachable !== undefined && threshold > reachable) {
      say(
        `score_threshold ${threshold} is above ${reachable}, the score of every enabled rule matching at once`,
      );
    }
  });
  return out;
}

/** The sum of the points of the enabled OWASP rules under the overrides (undefined when the CRS is missing). */
function reachableScore(catalogue: Catalogue, overrides: Overrides | undefined): number | undefined {
  let rules: ReturnType<Catalogue['owasp']['rules']>;
  try {
    rules = catalogue.owasp.rules();
  } catch {
    return undefined;
  }
  let sum = 0;
  for (const rule of rules) {
    let enabled = overrides?.enabled ?? rule.enabled;
    for (const c of overrides?.categories ?? [])
      if (rule.categories.includes(c.category) && c.enabled !== undefined) enabled = c.enabled;
    const own = overrides?.rules?.find((r) => r.id === rule.id);
    if (own?.enabled !== undefined) enabled = own.enabled;
    const points = rule.action_parameters?.increment;
    if (enabled && typeof points === 'number') sum += points;
  }
  return sum;
}
