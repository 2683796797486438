import { invalidValue } from '../errors.ts';
import { checkExpression } from '../rulesets/expression.ts';
import type { PlanName } from '../zones/plans.ts';

/**
 * Filter expressions are the Rules language too. They may be up to 16 KB (the rules parser's default is
 * 4 KB), so that the WAF upgrade can meet — and refuse — firewall rules longer than its 4 KB limit.
 */
export const FILTER_EXPRESSION_MAX = 16 * 1024;

export function checkFilterExpression(expression: string, pointer: string, plan: PlanName): void {
  if (Buffer.byteLength(expression) > FILTER_EXPRESSION_MAX) {
    throw invalidValue(pointer, expression, `a filter expression is at most ${FILTER_EXPRESSION_MAX} bytes`);
  }
  checkExpression(expression, pointer, plan, { maxLength: FILTER_EXPRESSION_MAX });
}
