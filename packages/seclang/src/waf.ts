// The compiled WAF: evaluate(request) runs phases 1 and 2 and reports matches, the anomaly score
// and the decision. Evaluation is synchronous and bounded by the per-request CPU budget.

import { processRequestBody } from './engine/body.ts';
import { CpuBudget } from './engine/budget.ts';
import { PersistentStore } from './engine/collections/persistent-store.ts';
import { runPhase } from './engine/phases.ts';
import type { WafRequest } from './engine/request-data.ts';
import type { RuleSet } from './engine/ruleset.ts';
import { readScores } from './engine/scoring.ts';
import { type Intervention, type MatchedRule, Transaction } from './engine/transaction.ts';

export type Decision = 'allow' | 'block' | 'drop' | 'redirect';

export interface EvaluationResult {
  decision: Decision;
  /** HTTP status for a blocked request. */
  status?: number;
  /** The rule that decided a block (0 for the body limit). */
  ruleId?: number;
  matchedRules: MatchedRule[];
  anomalyScore: number;
  paranoiaLevel: number;
  scores: { byParanoiaLevel: number[]; byCategory: Record<string, number> };
  /** DetectionOnly: what the engine would have done. */
  detectionOnly: boolean;
  wouldBlock?: { status: number; ruleId: number };
  timedOut?: boolean;
  bodyError?: string;
  /** The body error is a header value that is not UTF-8 (requestHeadersUtf8), not the body. */
  headerError?: boolean;
  bodyLimitExceeded?: boolean;
  /** Which body limit the request passed, and the limit in bytes. */
  bodyLimitMessage?: string;
  durationMs: number;
}

export interface WafOptions {
  /** CPU milliseconds of evaluation per request before the timeout policy applies. */
  timeBudgetMs: number;
  /** What a request that exhausts the budget gets: `block` (fail closed) or `allow`. */
  onTimeout: 'block' | 'allow';
  timeoutStatus: number;
}

let counter = 0;

function decisionOf(i: Intervention): Decision {
  return i.action === 'deny' ? 'block' : i.action;
}

export class Waf {
  readonly ruleset: RuleSet;
  readonly options: WafOptions;
  private readonly store: PersistentStore;

  constructor(ruleset: RuleSet, options: WafOptions) {
    this.ruleset = ruleset;
    this.options = options;
    this.store = new PersistentStore(10_000, ruleset.config.collectionTimeout);
  }

  /** Number of top-level rules loaded (chains count once). */
  get ruleCount(): number {
    return this.ruleset.rules().length;
  }

  evaluate(request: WafRequest): EvaluationResult {
    const tx = new Transaction(
      this.ruleset,
      request,
      this.store,
      `${Date.now().toString(36)}.${(++counter).toString(36)}`,
    );
    const budget = new CpuBudget(this.options.timeBudgetMs);
    tx.budget = budget;
    let limitMessage: string | undefined;
    if (tx.ruleEngine !== 'Off' && runPhase(tx, 1, budget)) {
      limitMessage = processRequestBody(tx);
      if (!tx.intervention) runPhase(tx, 2, budget);
    }
    const scores = readScores(tx);
    const result: EvaluationResult = {
      decision: 'allow',
      matchedRules: tx.matches,
      anomalyScore: scores.anomalyScore,
      paranoiaLevel: scores.paranoiaLevel,
      scores: { byParanoiaLevel: scores.byParanoiaLevel, byCategory: scores.byCategory },
      detectionOnly: this.ruleset.config.ruleEngine === 'DetectionOnly',
      durationMs: performance.now() - tx.startedAt,
    };
    if (tx.intervention) {
      result.decision = decisionOf(tx.intervention);
      result.status = tx.intervention.status;
      result.ruleId = tx.intervention.ruleId;
    } else if (tx.detectedIntervention) {
      result.wouldBlock = { status: tx.detectedIntervention.status, ruleId: tx.detectedIntervention.ruleId };
    }
    if (tx.timedOut) {
      result.timedOut = true;
      if (this.options.onTimeout === 'block' && tx.ruleEngine === 'On' && !tx.intervention) {
        result.decision = 'block';
        result.status = this.options.timeoutStatus;
      }
    }
    if (tx.bodyError) result.bodyError = tx.bodyErrorMessage;
    if (tx.headerError) result.headerError = true;
    if (tx.inboundDataError) result.bodyLimitExceeded = true;
    if (limitMessage) result.bodyLimitMessage = limitMessage;
    return result;
  }
}
