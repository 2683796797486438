// pm: case-insensitive phrase match (any of the space-separated phrases occurs in the input).
// Argument: phrases. Example: SecRule ARGS "@pm document.cookie .innerhtml" "id:1"

import { phrasePrefilter } from '../regex/prefilter.ts';
import type { OperatorDef, OperatorFn } from '../types.ts';
import { AhoCorasick } from '../util/aho-corasick.ts';

export function phraseMatcher(phrases: readonly string[]): OperatorFn {
  const ac = new AhoCorasick(phrases);
  const fn: OperatorFn = (tx, input) => {
    const hit = ac.search(input);
    if (hit !== undefined && tx.capture) tx.setCapture(0, hit);
    return hit !== undefined;
  };
  fn.pure = true;
  const prefilter = phrasePrefilter(phrases);
  if (prefilter) fn.prefilter = prefilter;
  return fn;
}

export const pm: OperatorDef = {
  name: 'pm',
  compile: (arg) => phraseMatcher(arg.split(/\s+/).filter((p) => p.length > 0)),
};
