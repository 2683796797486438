// rx: PCRE regular expression (translated to a JS RegExp at load; macros compiled per value); a
// constant pattern carries its character-class prefilter.
// Argument: the pattern. Example: SecRule ARGS "@rx (?i)union\s+select" "id:1,capture"
import { compileMacro, hasMacro } from '../macros.ts';
import { regexPrefilter } from '../regex/prefilter.ts';
import { compilePcre } from '../regex/translate.ts';
import type { OperatorDef, OperatorFn, Transaction } from '../types.ts';

function run(re: RegExp, tx: Transaction, input: string): boolean {
  if (!tx.capture) return re.test(input);
  const m = re.exec(input);
  if (m) tx.setCaptures(m);
  return m !== null;
}

export const rx: OperatorDef = {
  name: 'rx',
  compile(arg): OperatorFn {
    if (!hasMacro(arg)) {
      const re = compilePcre(arg);
      const fn: OperatorFn = (tx, input) => run(re, tx, input);
      const prefilter = regexPrefilter(re);
      if (prefilter) fn.prefilter = prefilter;
      return fn;
    }
    const expand = compileMacro(arg);
    return (tx, input) => run(compilePcre(expand(tx, undefined)), tx, input);
  },
};
