// cmdLine: shell-evasion normalisation: drops \ " ' ^, turns , ; and whitespace runs into one
// space, drops a space before / or (, lowercases. Example: t:none,t:cmdLine
import type { TransformationDef } from '../types.ts';
import { asciiLower } from './lowercase.ts';

const SPECIAL = /["'\\^ ,;\t\r\n]/;

/** 0: kept, 1: dropped (\\ " ' ^), 2: separator (space , ; \t \r \n), 3: / or ( */
const KIND = new Uint8Array(256);
for (const c of '\\"\'^') KIND[c.charCodeAt(0)] = 1;
for (const c of ' ,;\t\r\n') KIND[c.charCodeAt(0)] = 2;
for (const c of '/(') KIND[c.charCodeAt(0)] = 3;

export const cmdLine: TransformationDef = {
  name: 'cmdLine',
  transform(input) {
    if (!SPECIAL.test(input)) return asciiLower(input);
    // Runs of kept characters are copied as slices; a separator's space is written only once the
    // next kept character shows it is not followed by / or ( (taking it back off a long string
    // would copy the whole output each time: quadratic on `a '(` repeated).
    let out = '';
    let space = false;
    let start = 0;
    const n = input.length;
    for (let i = 0; i < n; i++) {
      const c = input.charCodeAt(i);
      const kind = c < 256 ? KIND[c]! : 0;
      if (kind === 0 || kind === 3) {
        if (space) {
          if (kind === 0) out += ' '; // a space before / or ( is dropped
          space = false;
        }
        continue;
      }
      out += input.slice(start, i);
      start = i + 1;
      if (kind === 2) space = true;
    }
    if (space) out += ' ';
    out = asciiLower(out + input.slice(start));
    return out === input ? input : out;
  },
};
