// rx: PCRE regular expression (translated to a JS RegExp at load; macros compiled per value); a
// constant pattern carries its character-class prefilter. Large inputs run on RE2 (regex/re2.ts).
// Argument: the pattern. Example: SecRule ARGS "@rx (?i)union\s+select" "id:1,capture"
import { compileMacro, hasMacro } from '../macros.ts';
import { regexPrefilter } from '../regex/prefilter.ts';
import { engineFor, type RoutedRegex, routed } from '../regex/re2.ts';
import { compilePcre } from '../regex/translate.ts';
import type { OperatorDef, OperatorFn, Transaction } from '../types.ts';

function run(r: RoutedRegex, tx: Transaction, input: string): boolean {
  const re = engineFor(r, input, tx);
  const timed = re === r.re && r.big !== undefined;
  const start = timed ? performance.now() : 0;
  let hit: boolean;
  if (!tx.capture) hit = re.test(input);
  else {
    const m = re.exec(input);
    if (m) tx.setCaptures(m);
    hit = m !== null;
  }
  if (timed) tx.v8RegexMs += performance.now() - start;
  return hit;
}

export const rx: OperatorDef = {
  name: 'rx',
  compile(arg): OperatorFn {
    if (!hasMacro(arg)) {
      const r = routed(compilePcre(arg));
      const fn: OperatorFn = (tx, input) => run(r, tx, input);
      fn.pure = true;
      const prefilter = regexPrefilter(r.re);
      if (prefilter) fn.prefilter = prefilter;
      return fn;
    }
    const expand = compileMacro(arg);
    return (tx, input) => run(routed(compilePcre(expand(tx, undefined))), tx, input);
  },
};
