import type { AttackRule } from '../managed/attack-rules.ts';
import { type CompiledExpression, matchedFields } from './expressions.ts';
import { inspectedInputs } from './inputs/index.ts';
import type { RequestView } from './request.ts';
import {
  type EventAction,
  isTerminal,
  type MatchedDatum,
  type RuleEvent,
  snippet,
  type Terminal,
} from './verdict.ts';

/** A signature ready to run: its id as events show it, its effective action, its expression. */
export interface CompiledSignature {
  id: string;
  description: string;
  /** block, a challenge, or log. */
  action: EventAction;
  expr: CompiledExpression;
  /** Set on the rules that run an attack detection over the request's values after their expression. */
  attack?: AttackRule;
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
    const matchedData = rule.attack ? detectAttack(rule.attack, view) : matchedFields(rule.expr, ctx);
    if (!matchedData) continue;
    const event: RuleEvent = {
      ...frame,
      action: rule.action,
      ruleId: rule.id,
      description: rule.description,
      matchedData,
    };
    events.push(event);
    if (isTerminal(rule.action)) return { events, terminal: { action: rule.action, event } };
  }
  return { events };
}

/** The first request value the attack rule reads that its detection flags, as matched data; or undefined. */
function detectAttack(rule: AttackRule, view: RequestView): MatchedDatum[] | undefined {
  for (const input of inspectedInputs(view)) {
    if (!rule.reads(input)) continue;
    const found = rule.match(input.value);
    if (found === undefined) continue;
    return [
      { name: `${input.location}:${input.name}`, value: snippet(input.value), message: snippet(found) },
    ];
  }
  return undefined;
}
