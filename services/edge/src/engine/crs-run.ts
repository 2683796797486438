import type { EvaluationResult, Waf } from '@cairn/seclang';
import { BODY_ERROR_RULES } from './crs-engines.ts';
import type { RequestView } from './request.ts';
import type { EventFrame, RunOutcome } from './signatures.ts';
import { type EventAction, isTerminal, type MatchedDatum, type RuleEvent, snippet } from './verdict.ts';

/** How events name a CRS rule and what its (overridden) action is: `score`, `log`, `block`, a challenge. */
export interface CrsRuleView {
  id: string;
  description: string;
  action: EventAction | 'score';
  points: number;
}

/** A CRS engine with everything needed to turn its result into events: the OWASP ruleset or package. */
export interface CompiledCrs {
  waf: Waf;
  rules: ReadonlyMap<number, CrsRuleView>;
  anomaly: {
    enabled: boolean;
    action: EventAction;
    threshold: number;
    id: string;
    description: string;
  };
  /** The threshold used instead for XMLHttpRequest requests (the previous WAF's AJAX sensitivities). */
  ajaxThreshold?: number;
}

const datum = (m: { id: number; message: string; data: string; matchedVar: string }): MatchedDatum => ({
  name: m.matchedVar,
  value: snippet(m.data),
  ruleId: String(m.id),
  message: m.message,
});

/**
 * Thrown by runCrs when the request is evaluated in the worker pool and this engine's answer has not
 * arrived yet: the engine gets it from the pool and runs the plan again (everything before the CRS is
 * cheap and deterministic; the CRS answers are then read from the view).
 */
export class CrsInPool {
  constructor(readonly waf: Waf) {}
}

/** The CRS's result for the request: evaluated here, or the worker pool's answer (or why there is none). */
function crsResult(crs: CompiledCrs, view: RequestView): EvaluationResult | { refused: string } {
  if (view.crsResults === undefined) return crs.waf.evaluate(view.seclang);
  const answer = view.crsResults.get(crs.waf);
  if (answer === undefined) throw new CrsInPool(crs.waf);
  return answer;
}

/**
 * Runs the real CRS on the request and decides as the managed ruleset says: each rule adds its points
 * (rules overridden to `log` add none and are reported; skipped rules are taken back out), and the
 * anomaly rule acts when the score reaches its threshold. A rule overridden to block or challenge acts
 * by itself. A body cut at the inspection limit cannot parse and is not blocked for it; a complete body
 * that does not parse is (rules 200002–200004), and so is a header value that is not UTF-8. A request over the time budget is blocked (fail closed), and so is one the worker pool refused (queue full, worker died).
 */
export function runCrs(
  crs: CompiledCrs,
  view: RequestView,
  frame: EventFrame,
  skipped?: ReadonlySet<string>,
): RunOutcome {
  const result = crsResult(crs, view);
  const events: RuleEvent[] = [];
  const event = (action: EventAction, id: string, description: string, data: MatchedDatum[]) => {
    const e: RuleEvent = { ...frame, action, ruleId: id, description, matchedData: data };
    events.push(e);
    return e;
  };
  if ('refused' in result) {
    const e = event('block', crs.anomaly.id, result.refused, []);
    return { events, terminal: { action: 'block', event: e } };
  }
  if (result.timedOut && result.decision === 'block') {
    const e = event('block', crs.anomaly.id, 'WAF time budget exceeded: request refused (fail closed)', []);
    return { events, terminal: { action: 'block', event: e } };
  }
  let score = result.anomalyScore;
  const counted: MatchedDatum[] = [];
  for (const m of result.matchedRules) {
    const rule = crs.rules.get(m.id);
    if (BODY_ERROR_RULES.has(m.id)) {
      if (view.request.bodyTruncated && !result.headerError) continue;
      const e = event('block', String(m.id), m.message, [datum(m)]);
      return { events, terminal: { action: 'block', event: e } };
    }
    if (!rule) continue;
    if (skipped?.has(rule.id)) {
      if (rule.action === 'score') score -= rule.points;
      continue;
    }
    if (rule.action === 'score') counted.push(datum(m));
    else if (rule.action === 'log') event('log', rule.id, rule.description, [datum(m)]);
    else if (isTerminal(rule.action)) {
      const e = event(rule.action, rule.id, rule.description, [datum(m)]);
      return { events, terminal: { action: rule.action, event: e } };
    }
  }
  const { anomaly } = crs;
  const ajax = crs.ajaxThreshold !== undefined && view.header('x-requested-with') === 'XMLHttpRequest';
  const threshold = ajax ? (crs.ajaxThreshold as number) : anomaly.threshold;
  if (anomaly.enabled && !skipped?.has(anomaly.id) && counted.length > 0 && score >= threshold) {
    const e = event(
      anomaly.action,
      anomaly.id,
      `${anomaly.description} (score ${score}, threshold ${threshold})`,
      counted.slice(0, 16),
    );
    if (isTerminal(anomaly.action)) return { events, terminal: { action: anomaly.action, event: e } };
  }
  return { events };
}
