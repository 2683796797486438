import type { StoredRule } from '../api/rulesets/model.ts';
import type { EntrypointRules } from './active-wafs.ts';
import type { CompileContext } from './compile-context.ts';
import { runCrs } from './crs-run.ts';
import { type CompiledExpression, compileExpression, matchedFields } from './expressions.ts';
import { type CompiledExecution, compileExecution, runnableAction } from './managed-rulesets.ts';
import { readOverrides } from './overrides.ts';
import type { RequestView } from './request.ts';
import { type EventFrame, type RunOutcome, runSignatures } from './signatures.ts';
import {
  type BlockResponse,
  type EventAction,
  type EventSource,
  isTerminal,
  type RuleEvent,
} from './verdict.ts';

/** `skip` action parameters (reference §1.6). */
export interface SkipParams {
  ruleset?: string;
  phase?: string;
  rulesets?: string[];
  rules?: Record<string, string[]>;
  phases?: string[];
  products?: string[];
}

export interface PhaseRule {
  id: string;
  description: string;
  action: EventAction | 'skip' | 'execute';
  expr: CompiledExpression;
  /** Skip rules log by default (`logging.enabled`). */
  logging: boolean;
  response?: BlockResponse;
  skip?: SkipParams;
  execute?: CompiledExecution;
}

export interface CompiledPhase {
  phase: string;
  source: EventSource;
  rulesetId: string;
  rules: PhaseRule[];
}

/** What earlier skip rules exempted, for the rest of this request. */
export interface SkipState {
  phases: Set<string>;
  products: Set<string>;
  rulesets: Set<string>;
  rules: Map<string, Set<string>>;
}

export const newSkipState = (): SkipState => ({
  phases: new Set(),
  products: new Set(),
  rulesets: new Set(),
  rules: new Map(),
});

function blockResponse(params: Record<string, unknown> | undefined): BlockResponse | undefined {
  const r = params?.response as { status_code?: number; content?: string; content_type?: string } | undefined;
  if (!r || typeof r.status_code !== 'number') return undefined;
  return {
    statusCode: r.status_code,
    content: r.content ?? '',
    contentType: r.content_type ?? 'text/plain',
  };
}

function compileRule(ctx: CompileContext, rule: StoredRule): PhaseRule | undefined {
  const action =
    rule.action === 'skip' || rule.action === 'execute' ? rule.action : runnableAction(rule.action);
  if (!action) {
    ctx.warnings.push(
      `rule ${rule.id}: the data plane does not carry out the ${rule.action} action; skipped`,
    );
    return undefined;
  }
  let expr: CompiledExpression;
  try {
    expr = compileExpression(rule.expression);
  } catch (error) {
    ctx.warnings.push(`rule ${rule.id}: ${(error as Error).message}`);
    return undefined;
  }
  const out: PhaseRule = {
    id: rule.id,
    description: rule.description,
    action,
    expr,
    logging: rule.logging?.enabled ?? true,
  };
  const params = rule.action_parameters;
  if (action === 'block') {
    const response = blockResponse(params);
    if (response) out.response = response;
  } else if (action === 'skip') {
    out.skip = (params ?? {}) as SkipParams;
  } else if (action === 'execute') {
    const id = typeof params?.id === 'string' ? params.id : '';
    try {
      out.execute = compileExecution(ctx, id, readOverrides(params));
    } catch (error) {
      ctx.warnings.push(`rule ${rule.id}: managed ruleset ${id} cannot run: ${(error as Error).message}`);
      return undefined;
    }
  }
  return out;
}

export function compilePhase(
  ctx: CompileContext,
  phase: string,
  source: EventSource,
  entry: EntrypointRules,
): CompiledPhase {
  const rules: PhaseRule[] = [];
  for (const r of entry.rules) {
    if (!r.enabled) continue;
    const compiled = compileRule(ctx, r);
    if (compiled) rules.push(compiled);
  }
  return { phase, source, rulesetId: entry.rulesetId, rules };
}

function applySkip(skip: SkipParams, state: SkipState): boolean {
  for (const p of skip.phases ?? []) state.phases.add(p);
  for (const p of skip.products ?? []) state.products.add(p);
  for (const r of skip.rulesets ?? []) state.rulesets.add(r);
  for (const [rs, ids] of Object.entries(skip.rules ?? {})) {
    const set = state.rules.get(rs) ?? new Set<string>();
    for (const id of ids) set.add(id);
    state.rules.set(rs, set);
  }
  return skip.ruleset === 'current' || skip.phase === 'current';
}

function runExecution(
  exec: CompiledExecution,
  view: RequestView,
  frame: EventFrame,
  state: SkipState,
): RunOutcome {
  if (state.rulesets.has(exec.rulesetId)) return { events: [] };
  const skipped = state.rules.get(exec.rulesetId);
  const f = { ...frame, rulesetId: exec.rulesetId };
  if (exec.kind === 'signatures') return runSignatures(exec.rules, view, f, skipped);
  if (exec.kind === 'crs' && exec.crs) return runCrs(exec.crs, view, f, skipped);
  return { events: [] };
}

/**
 * Runs one phase's entry point: rules in order; `skip` changes what later rules and phases do (it only
 * affects what comes after it), `execute` runs a managed ruleset, the first terminating action ends the
 * request, `log` records and goes on.
 */
export function runPhase(phase: CompiledPhase, view: RequestView, state: SkipState): RunOutcome {
  const events: RuleEvent[] = [];
  const frame: EventFrame = {
    source: phase.source,
    waf: 'new',
    phase: phase.phase,
    rulesetId: phase.rulesetId,
  };
  const ctx = view.rules;
  for (const rule of phase.rules) {
    if (rule.action === 'execute' && rule.execute && state.rulesets.has(rule.execute.rulesetId)) continue;
    if (!rule.expr.filter.execute(ctx)) continue;
    if (rule.action === 'execute') {
      if (!rule.execute) continue;
      const out = runExecution(rule.execute, view, frame, state);
      events.push(...out.events);
      if (out.terminal) return { events, terminal: out.terminal };
      continue;
    }
    const event: RuleEvent = {
      ...frame,
      action: rule.action,
      ruleId: rule.id,
      description: rule.description,
      matchedData: matchedFields(rule.expr, ctx),
    };
    if (rule.action === 'skip') {
      if (rule.logging) events.push(event);
      if (applySkip(rule.skip ?? {}, state)) break;
      continue;
    }
    events.push(event);
    if (isTerminal(rule.action)) {
      return {
        events,
        terminal: { action: rule.action, event, ...(rule.response ? { response: rule.response } : {}) },
      };
    }
  }
  return { events };
}
