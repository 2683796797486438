import type { Catalogue } from '../../../managed/catalogue.ts';
import { invalidValue, notEntitled } from '../../errors.ts';
import { arr, bool, hexId, int, obj, oneOf, optional, pointerTo, type Static, str } from '../../schema.ts';
import { atLeast, type PlanName, planLabel } from '../../zones/plans.ts';
import { OVERRIDE_ACTIONS, type SupportedPhase } from '../phases.ts';
import { disablesEveryParanoiaLevel } from '../waf-warnings.ts';

const overrideAction = oneOf(OVERRIDE_ACTIONS, 'Action for the matched managed rules');
const sensitivity = oneOf(['default', 'medium', 'low', 'eoff'], 'DDoS phases only');
const EDIT_HINT =
  'an override must change something: give action, enabled, score_threshold or sensitivity_level';

export const executeParameters = obj(
  {
    id: hexId('The managed ruleset to execute'),
    version: optional(str({ pattern: /^(latest|[0-9]{1,9})$/, patternHint: '"latest" or a version number' })),
    matched_data: optional(obj({ public_key: str({ min: 1, max: 1000 }) })),
    overrides: optional(
      obj(
        {
          action: optional(overrideAction),
          enabled: optional(bool()),
          sensitivity_level: optional(sensitivity),
          categories: optional(
            arr(
              obj(
                {
                  category: str({ min: 1, max: 100 }),
                  action: optional(overrideAction),
                  enabled: optional(bool()),
                  sensitivity_level: optional(sensitivity),
                },
                { minProperties: 2, minPropertiesHint: EDIT_HINT },
              ),
              { max: 1000 },
            ),
          ),
          rules: optional(
            arr(
              obj(
                {
                  id: hexId('A rule of the managed ruleset'),
                  action: optional(overrideAction),
                  enabled: optional(bool()),
                  score_threshold: optional(int(1, 1000, 'Anomaly-score threshold (OWASP 949110 rule only)')),
                  sensitivity_level: optional(sensitivity),
                },
                { minProperties: 2, minPropertiesHint: EDIT_HINT },
              ),
              { max: 10_000 },
            ),
          ),
        },
        {
          minProperties: 1,
          minPropertiesHint: 'overrides must set at least one of action, enabled, categories, rules',
        },
      ),
    ),
  },
  { description: 'execute: run a managed ruleset, with overrides' },
);

export type ExecuteParameters = Static<typeof executeParameters>;

/** What the catalogue must confirm about an execute rule: the ruleset, its version, categories and rules. */
export function checkExecute(
  params: ExecuteParameters,
  pointer: string,
  context: { catalogue: Catalogue; plan: PlanName; phase: SupportedPhase },
): void {
  const ruleset = context.catalogue.find(params.id);
  if (!ruleset) {
    throw invalidValue(
      pointerTo(pointer, 'id'),
      params.id,
      `no managed ruleset with this id is available; use ${context.catalogue.rulesets.map((r) => `${r.id} (${r.name})`).join(' or ')}`,
    );
  }
  if (!atLeast(context.plan, 'pro')) {
    throw notEntitled(
      `not entitled to execute the managed ruleset ${ruleset.id} (${ruleset.name}): it needs the Pro plan or above, and this zone is on ${planLabel(context.plan)}`,
      pointerTo(pointer, 'id'),
    );
  }
  if (params.version !== undefined && params.version !== 'latest' && params.version !== ruleset.version) {
    throw invalidValue(
      pointerTo(pointer, 'version'),
      params.version,
      `${ruleset.name} has version ${ruleset.version} only; use "latest" or "${ruleset.version}"`,
    );
  }
  const overrides = params.overrides;
  if (!overrides) return;
  const at = pointerTo(pointer, 'overrides');
  const ddosOnly = 'sensitivity_level is only applicable for DDoS phases';
  if (overrides.sensitivity_level !== undefined) {
    throw invalidValue(pointerTo(at, 'sensitivity_level'), overrides.sensitivity_level, ddosOnly);
  }
  const rules = ruleset.rules();
  const categories = new Set(rules.flatMap((r) => r.categories));
  const seenCategories = new Set<string>();
  overrides.categories?.forEach((c, i) => {
    const here = pointerTo(pointerTo(at, 'categories'), i);
    if (!categories.has(c.category)) {
      throw invalidValue(
        pointerTo(here, 'category'),
        c.category,
        `no rule of ${ruleset.name} has this category`,
      );
    }
    if (seenCategories.has(c.category)) {
      throw invalidValue(pointerTo(here, 'category'), c.category, 'this category is overridden twice');
    }
    seenCategories.add(c.category);
    if (c.sensitivity_level !== undefined)
      throw invalidValue(pointerTo(here, 'sensitivity_level'), c.sensitivity_level, ddosOnly);
  });
  if (disablesEveryParanoiaLevel(overrides)) {
    throw invalidValue(
      pointerTo(at, 'categories'),
      'paranoia-level-1…4 disabled',
      `these overrides disable every paranoia level of ${ruleset.name}, so the rule would stay enabled and never match; keep paranoia-level-1 enabled (the default level), or disable the execute rule itself (enabled: false)`,
    );
  }
  const seenRules = new Set<string>();
  overrides.rules?.forEach((o, i) => {
    const here = pointerTo(pointerTo(at, 'rules'), i);
    const rule = rules.find((r) => r.id === o.id);
    if (!rule) throw invalidValue(pointerTo(here, 'id'), o.id, `${ruleset.name} has no rule with this id`);
    if (seenRules.has(o.id)) throw invalidValue(pointerTo(here, 'id'), o.id, 'this rule is overridden twice');
    seenRules.add(o.id);
    if (o.score_threshold !== undefined && rule.score_threshold === undefined) {
      throw invalidValue(
        pointerTo(here, 'score_threshold'),
        o.score_threshold,
        `rule ${o.id} (${rule.description}) has no score threshold; only the anomaly-score rule has one`,
      );
    }
    if (o.sensitivity_level !== undefined)
      throw invalidValue(pointerTo(here, 'sensitivity_level'), o.sensitivity_level, ddosOnly);
  });
}
