import { EDGE_MANAGED_RULESET_ID, OWASP_RULESET_ID } from '../managed/catalogue.ts';
import { ANOMALY_CRS_ID, ANOMALY_RULE_ID, DEFAULT_SCORE_THRESHOLD, owaspRuleId } from '../managed/owasp.ts';
import type { ManagedRule } from '../managed/types.ts';
import type { CompileContext } from './compile-context.ts';
import type { CrsProfile } from './crs-engines.ts';
import type { CompiledCrs, CrsRuleView } from './crs-run.ts';
import { compileExpression } from './expressions.ts';
import { type EffectiveRule, type ExecuteOverrides, effectiveRule } from './overrides.ts';
import type { CompiledSignature } from './signatures.ts';
import { type EventAction, isTerminal } from './verdict.ts';

/** A managed ruleset as one execute rule deploys it, with that rule's overrides applied. */
export type CompiledExecution =
  | { kind: 'signatures'; rulesetId: string; rules: CompiledSignature[] }
  | { kind: 'crs'; rulesetId: string; crs: CompiledCrs | undefined }
  | { kind: 'unknown'; rulesetId: string };

/** An action the data plane can carry out, or undefined (the rule is then left out). */
export function runnableAction(action: string): EventAction | undefined {
  return isTerminal(action) || action === 'log' ? action : undefined;
}

function compileEdge(ctx: CompileContext, overrides: ExecuteOverrides | undefined): CompiledExecution {
  const rules: CompiledSignature[] = [];
  for (const rule of ctx.catalogue.edge.rules()) {
    const eff = effectiveRule(rule, overrides);
    const action = runnableAction(eff.action);
    if (!eff.enabled || !action) continue;
    const attack = ctx.catalogue.attackRules.get(rule.id);
    rules.push({
      id: rule.id,
      description: rule.description,
      action,
      expr: compileExpression(rule.expression),
      ...(attack ? { attack } : {}),
    });
  }
  return { kind: 'signatures', rulesetId: EDGE_MANAGED_RULESET_ID, rules };
}

/**
 * The OWASP Core Ruleset: the real CRS at the paranoia level of the highest `paranoia-level-N` whose rules
 * stay enabled (the published ruleset enables all four; overrides disable the levels above), with every
 * disabled rule below it switched off, per-rule actions (`log`; `block` and challenges act by themselves)
 * and the anomaly rule's action and `score_threshold` (default 40).
 */
function compileOwasp(ctx: CompileContext, overrides: ExecuteOverrides | undefined): CompiledExecution {
  const crsRules = ctx.catalogue.crsCatalogue().rules;
  const managed = new Map<string, ManagedRule>(ctx.catalogue.owasp.rules().map((r) => [r.id, r]));
  const views = new Map<number, CrsRuleView>();
  const enabledPl: number[] = [];
  const off: { crsId: number; pl: number }[] = [];
  const ruleActions: Record<string, 'block' | 'log'> = {};
  for (const r of crsRules) {
    const rule = managed.get(owaspRuleId(r.crsId));
    if (!rule) continue;
    const eff = effectiveRule(rule, overrides, false);
    if (!eff.enabled) {
      off.push({ crsId: r.crsId, pl: r.paranoiaLevel });
      continue;
    }
    enabledPl.push(r.paranoiaLevel);
    const action = runnableAction(eff.action) ?? 'score';
    if (action === 'log') ruleActions[String(r.crsId)] = 'log';
    else if (action !== 'score') ruleActions[String(r.crsId)] = 'block';
    views.set(r.crsId, { id: rule.id, description: rule.description, action, points: r.score });
  }
  const anomalyRule = managed.get(ANOMALY_RULE_ID);
  const anomaly: EffectiveRule = anomalyRule
    ? effectiveRule(anomalyRule, overrides)
    : { enabled: false, action: 'block' };
  const acts = anomaly.enabled || Object.keys(ruleActions).length > 0;
  if (enabledPl.length === 0 || !acts) return { kind: 'crs', rulesetId: OWASP_RULESET_ID, crs: undefined };
  const paranoiaLevel = Math.max(...enabledPl) as CrsProfile['paranoiaLevel'];
  const profile: CrsProfile = {
    paranoiaLevel,
    disabledRules: off.filter((o) => o.pl <= paranoiaLevel).map((o) => o.crsId),
    ruleActions,
  };
  return {
    kind: 'crs',
    rulesetId: OWASP_RULESET_ID,
    crs: {
      waf: ctx.engines.get(profile),
      rules: views,
      anomaly: {
        enabled: anomaly.enabled,
        action: runnableAction(anomaly.action) ?? 'block',
        threshold: anomaly.scoreThreshold ?? DEFAULT_SCORE_THRESHOLD,
        id: ANOMALY_RULE_ID,
        description: `${ANOMALY_CRS_ID}: Inbound Anomaly Score Exceeded`,
      },
    },
  };
}

export function compileExecution(
  ctx: CompileContext,
  rulesetId: string,
  overrides: ExecuteOverrides | undefined,
): CompiledExecution {
  if (rulesetId === EDGE_MANAGED_RULESET_ID) return compileEdge(ctx, overrides);
  if (rulesetId === OWASP_RULESET_ID) return compileOwasp(ctx, overrides);
  return { kind: 'unknown', rulesetId };
}
