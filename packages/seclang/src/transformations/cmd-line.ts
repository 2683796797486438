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
    // runs of kept characters are copied as slices
    let out = '';
    let space = false;
    let start = 0;
    const n = input.length;
    for (let i = 0; i < n; i++) {
      const c = input.charCodeAt(i);
      const kind = c < 256 ? KIND[c]! : 0;
      if (kind === 0) {
        space = false;
        continue;
      }
      if (kind === 3) {
        if (space) {
          // drop the space before / or (
          out = out.slice(0, -1);
          space = false;
        }
        continue;
      }
      out += input.slice(start, i);
      start = i + 1;
      if (kind === 2 && !space) {
        out += ' ';
        space = true;
      }
    }
    out = asciiLower(out + input.slice(start));
    return out === input ? input : out;
  },
};
