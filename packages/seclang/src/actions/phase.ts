// phase: which processing phase runs the rule (1 request headers, 2 request body, 3–5 response
// and logging; `request` = 2, `response` = 4, `logging` = 5). Example: "id:1,phase:2"
import { RuleCompileError } from '../errors.ts';
import type { ActionDef } from '../types.ts';

const NAMED: Record<string, number> = { request: 2, response: 4, logging: 5 };

export function parsePhase(arg: string | undefined): number {
  const value = (arg ?? '').toLowerCase();
  const n = NAMED[value] ?? Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 5) throw new RuleCompileError(`bad phase "${arg}"`);
  return n;
}

export const phase: ActionDef = {
  name: 'phase',
  init(rule, arg) {
    rule.phase = parsePhase(arg);
  },
};
