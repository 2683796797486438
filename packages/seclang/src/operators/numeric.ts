// eq, ge, gt, lt, le: integer comparison of the input with the (macro-expanded) argument.
// Example: SecRule TX:EXECUTING_PARANOIA_LEVEL "@lt 2" "id:1,skipAfter:END"
import { compileMacro, hasMacro } from '../macros.ts';
import type { OperatorDef, OperatorFn } from '../types.ts';
import { toInt } from '../util/numbers.ts';

function numeric(name: string, cmp: (a: number, b: number) => boolean): OperatorDef {
  return {
    name,
    compile(arg): OperatorFn {
      if (!hasMacro(arg)) {
        const n = toInt(arg.trim());
        const fn: OperatorFn = (_tx, input) => cmp(toInt(input), n);
        fn.pure = true;
        return fn;
      }
      const expand = compileMacro(arg);
      return (tx, input) => cmp(toInt(input), toInt(expand(tx, undefined)));
    },
  };
}

export const eq = numeric('eq', (a, b) => a === b);
export const ge = numeric('ge', (a, b) => a >= b);
export const gt = numeric('gt', (a, b) => a > b);
export const lt = numeric('lt', (a, b) => a < b);
export const le = numeric('le', (a, b) => a <= b);
