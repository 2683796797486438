import type { Catalogue } from '../../managed/catalogue.ts';
import { EDGE_CODES, edgeError, invalidValue, notEntitled } from '../errors.ts';
import { isHexId } from '../ids.ts';
import { obj, pointerTo } from '../schema.ts';
import { check } from '../validation.ts';
import { type PlanName, planLabel } from '../zones/plans.ts';
import { blockParameters } from './action-parameters/block.ts';
import { checkExecute, executeParameters } from './action-parameters/execute.ts';
import { checkSkip, skipParameters } from './action-parameters/skip.ts';
import { checkExpression } from './expression.ts';
import type { RuleContent } from './model.ts';
import { PHASE_ACTIONS, type SupportedPhase } from './phases.ts';
import type { RuleInput } from './rule-input.ts';

export interface RuleContext {
  phase: SupportedPhase;
  plan: PlanName;
  catalogue: Catalogue;
}

const noParameters = obj({});

/** A rule's id field: "" or absent for a new rule, otherwise a 32-hex id. */
export function inputRuleId(input: { id?: string }, pointer: string): string | undefined {
  if (input.id === undefined || input.id === '') return undefined;
  if (!isHexId(input.id))
    throw invalidValue(pointerTo(pointer, 'id'), input.id, 'it must be a 32-character hex rule id or ""');
  return input.id;
}

/** Checks one rule in its phase and zone; returns its content with defaults filled in. */
export function checkRule(input: RuleInput, context: RuleContext, pointer: string): RuleContent {
  const allowed = PHASE_ACTIONS[context.phase];
  if (!allowed.includes(input.action)) {
    throw invalidValue(
      pointerTo(pointer, 'action'),
      input.action,
      `it is not an action of the ${context.phase} phase; use one of ${allowed.join(', ')}`,
    );
  }
  if (input.action === 'log' && context.plan !== 'enterprise') {
    throw notEntitled(
      `not entitled to use the log action: it needs the Enterprise plan, and this zone is on ${planLabel(context.plan)}`,
      pointerTo(pointer, 'action'),
    );
  }
  checkExpression(input.expression, pointerTo(pointer, 'expression'), context.plan);
  if (input.logging !== undefined && input.action !== 'skip') {
    throw invalidValue(
      pointerTo(pointer, 'logging'),
      input.logging,
      'logging can only be configured on skip rules',
    );
  }
  const at = pointerTo(pointer, 'action_parameters');
  const raw = input.action_parameters;
  let parameters: Record<string, unknown> | undefined;
  switch (input.action) {
    case 'execute': {
      if (raw === undefined) throw parametersRequired('execute', at);
      const params = check(executeParameters, raw, at);
      checkExecute(params, at, context);
      parameters = params;
      break;
    }
    case 'skip': {
      if (raw === undefined) throw parametersRequired('skip', at);
      const params = check(skipParameters, raw, at);
      checkSkip(params, at, context);
      parameters = params;
      break;
    }
    case 'block': {
      const params = raw === undefined ? {} : check(blockParameters, raw, at);
      parameters = Object.keys(params).length > 0 ? params : undefined;
      break;
    }
    default:
      if (raw !== undefined) check(noParameters, raw, at);
  }
  return {
    action: input.action,
    expression: input.expression,
    description: input.description ?? '',
    enabled: input.enabled ?? true,
    ref: input.ref ?? '',
    ...(parameters ? { action_parameters: parameters } : {}),
    ...(input.logging ? { logging: input.logging } : {}),
  };
}

function parametersRequired(action: string, pointer: string) {
  return edgeError(400, 20113, `action parameters are required for the ${action} action`, { pointer });
}

export { EDGE_CODES };
