import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ANOMALY_RULE_ID,
  DEFAULT_SCORE_THRESHOLD,
  EDGE_MANAGED_RULESET_ID as EDGE,
  OWASP_RULESET_ID as OWASP,
} from '../src/index.ts';
import type { Rule } from '../web/src/api.ts';
import {
  bodyOf,
  EDGE_MANAGED_RULESET_ID,
  OWASP_ANOMALY_RULE_ID,
  OWASP_RULESET_ID,
  owaspActionOf,
  paranoiaLevelOf,
  scoreThresholdOf,
  DEFAULT_SCORE_THRESHOLD as WEB_DEFAULT_THRESHOLD,
  withAnomalySetting,
  withoutRuleOverride,
  withParanoiaLevel,
  withRuleOverride,
} from '../web/src/config.ts';

/** The dashboard's editing of an entry point's execute rules (web/src/config.ts), without a browser. */
describe('dashboard configuration editing', () => {
  const owasp = (overrides?: NonNullable<Rule['action_parameters']>['overrides']): Rule => ({
    action: 'execute',
    expression: 'true',
    action_parameters: { id: OWASP_RULESET_ID, ...(overrides ? { overrides } : {}) },
  });

  it("uses the catalogue's ids and default threshold", () => {
    expect([EDGE_MANAGED_RULESET_ID, OWASP_RULESET_ID, OWASP_ANOMALY_RULE_ID, WEB_DEFAULT_THRESHOLD]).toEqual(
      [EDGE, OWASP, ANOMALY_RULE_ID, DEFAULT_SCORE_THRESHOLD],
    );
  });

  it('reads and writes the paranoia level as category overrides, keeping other categories', () => {
    expect(paranoiaLevelOf(owasp())).toBe(4);
    const pl1 = withParanoiaLevel(owasp({ categories: [{ category: 'wordpress', enabled: false }] }), 1);
    expect(pl1.action_parameters!.overrides!.categories).toEqual([
      { category: 'wordpress', enabled: false },
      { category: 'paranoia-level-2', enabled: false },
      { category: 'paranoia-level-3', enabled: false },
      { category: 'paranoia-level-4', enabled: false },
    ]);
    expect(paranoiaLevelOf(pl1)).toBe(1);
    expect(withParanoiaLevel(pl1, 4).action_parameters!.overrides!.categories).toEqual([
      { category: 'wordpress', enabled: false },
    ]);
    expect(withParanoiaLevel(owasp(), 4).action_parameters).toEqual({ id: OWASP_RULESET_ID });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), (a, b) => {
        expect(paranoiaLevelOf(withParanoiaLevel(withParanoiaLevel(owasp(), a), b))).toBe(b);
      }),
    );
  });

  it('the score threshold and action live on the anomaly rule; defaults leave no override', () => {
    const rule = withAnomalySetting(owasp(), { score_threshold: 25, action: 'log' });
    expect(rule.action_parameters!.overrides!.rules).toEqual([
      { id: OWASP_ANOMALY_RULE_ID, score_threshold: 25, action: 'log' },
    ]);
    expect([scoreThresholdOf(rule), owaspActionOf(rule)]).toEqual([25, 'log']);
    const back = withAnomalySetting(withAnomalySetting(rule, { score_threshold: 40 }), { action: 'block' });
    expect(back.action_parameters).toEqual({ id: OWASP_RULESET_ID });
    expect([scoreThresholdOf(back), owaspActionOf(back)]).toEqual([40, 'block']);
  });

  it('rule overrides are added, replaced and removed without touching the input', () => {
    const start = owasp();
    const one = withRuleOverride(start, { id: 'abc', enabled: false });
    expect(start.action_parameters).toEqual({ id: OWASP_RULESET_ID });
    const replaced = withRuleOverride(one, { id: 'abc', action: 'log' });
    expect(replaced.action_parameters!.overrides!.rules).toEqual([{ id: 'abc', action: 'log' }]);
    expect(withoutRuleOverride(replaced, 'abc').action_parameters).toEqual({ id: OWASP_RULESET_ID });
  });

  it('the body to PUT has no ids, versions or refs', () => {
    const body = bodyOf({
      name: 'default',
      rules: [{ id: 'x', version: '1', ref: 'y', action: 'execute', expression: 'true' }],
    });
    expect(body).toEqual({ name: 'default', rules: [{ action: 'execute', expression: 'true' }] });
  });
});
