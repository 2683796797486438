// Runs one phase's rule list in order: removed rules are skipped, a matching rule is logged and
// its disruptive action applied (or only noted in DetectionOnly mode), skipAfter jumps to its
// marker. The CPU budget is checked between rules.

import type { Rule, Transaction } from '../types.ts';
import type { CpuBudget } from './budget.ts';
import { evaluateRule } from './evaluate-rule.ts';
import type { Intervention } from './transaction.ts';

function record(tx: Transaction, rule: Rule): void {
  if (!rule.log) return;
  tx.matches.push({
    id: rule.id,
    phase: rule.phase,
    message: rule.msg ? rule.msg(tx, rule) : '',
    data: rule.logdata ? rule.logdata(tx, rule) : '',
    tags: rule.tags,
    ...(rule.severity ? { severity: rule.severity } : {}),
    matchedVar: tx.matchedVarName,
  });
}

function disrupt(tx: Transaction, rule: Rule): void {
  let action = rule.disruptive === 'block' ? rule.defaultDisruptive : rule.disruptive;
  if (action === 'block') action = 'deny';
  if (action === 'pass') return;
  if (action === 'allow') {
    if (tx.ruleEngine === 'On') tx.allowed = true;
    return;
  }
  const intervention: Intervention = {
    action,
    status: rule.status ?? (action === 'redirect' ? 302 : 403),
    ruleId: rule.id,
  };
  if (tx.ruleEngine === 'On') tx.intervention = intervention;
  else tx.detectedIntervention ??= intervention;
}

/** Runs `phase`; returns false when processing must stop (intervention, allow, time budget). */
export function runPhase(tx: Transaction, phase: number, budget: CpuBudget): boolean {
  const list = tx.ruleset.phases[phase];
  const jumps = tx.ruleset.jumps[phase];
  if (!list || !jumps) return true;
  tx.phase = phase;
  tx.targetCache = [];
  for (let i = 0; i < list.length; i++) {
    if (tx.ruleEngine === 'Off') return true;
    const rule = list[i]!;
    if (typeof rule === 'string') continue;
    if ((i & 7) === 0 && budget.spent()) {
      tx.timedOut = true;
      return false;
    }
    if (tx.isRuleRemoved(rule)) continue;
    if (!evaluateRule(tx, rule)) {
      if (tx.timedOut) return false;
      continue;
    }
    record(tx, rule);
    disrupt(tx, rule);
    if (tx.intervention || tx.allowed) return false;
    if (rule.skipAfter !== undefined) i = jumps[i]!;
    else if (rule.skip > 0) {
      for (let n = rule.skip; n > 0 && i + 1 < list.length; ) if (typeof list[++i] !== 'string') n--;
    }
  }
  return true;
}
