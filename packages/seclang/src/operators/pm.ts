// pm: case-insensitive phrase match (any of the space-separated phrases occurs in the input).
// Argument: phrases. Example: SecRule ARGS "@pm document.cookie .innerhtml" "id:1"
import type { OperatorDef, OperatorFn } from '../types.ts';
import { AhoCorasick } from '../util/aho-corasick.ts';

export function phraseMatcher(phrases: readonly string[]): OperatorFn {
  const ac = new AhoCorasick(phrases);
  return (tx, input) => {
    const hit = ac.search(input);
    if (hit !== undefined && tx.capture) tx.setCapture(0, hit);
    return hit !== undefined;
  };
}

export const pm: OperatorDef = {
  name: 'pm',
  compile: (arg) => phraseMatcher(arg.split(/\s+/).filter((p) => p.length > 0)),
};
