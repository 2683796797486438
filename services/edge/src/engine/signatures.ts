import { type CompiledExpression, matchedFields } from './expressions.ts';
import type { RequestView } from './request.ts';
import { type EventAction, isTerminal, type RuleEvent, type Terminal } from './verdict.ts';

/** A signature ready to run: its id as events show it, its effective action, its expression. */
export interface CompiledSignature {
  id: string;
  description: string;
  /** block, a challenge, or log. */
  action: EventAction;
  expr: CompiledExpression;
}

export interface RunOutcome {
  events: RuleEvent[];
  terminal?: Terminal;
}

export type EventFrame = Pick<RuleEvent, 'source' | 'waf' | 'phase' | 'rulesetId'>;

/**
 * Runs signatures in order: a `log` match is recorded and evaluation goes on; the first terminating match
 * ends it. `skipped` holds ids that a skip rule exempted for this request.
 */
export function runSignatures(
  rules: readonly CompiledSignature[],
  view: RequestView,
  frame: EventFrame,
  skipped?: ReadonlySet<string>,
): RunOutcome {
  const events: RuleEvent[] = [];
  const ctx = view.rules;
  for (const rule of rules) {
    if (skipped?.has(rule.id)) continue;
    if (!rule.expr.filter.execute(ctx)) continue;
    const event: RuleEvent = {
      ...frame,
      action: rule.action,
      ruleId: rule.id,
      description: rule.description,
      matchedData: matchedFields(rule.expr, ctx),
    };
    events.push(event);
    if (isTerminal(rule.action)) return { events, terminal: { action: rule.action, event } };
  }
  return { events };
}
