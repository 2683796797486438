// cmdLine: shell-evasion normalisation: drops \ " ' ^, turns , ; and whitespace runs into one
// space, drops a space before / or (, lowercases. Example: t:none,t:cmdLine
import type { TransformationDef } from '../types.ts';
import { asciiLower } from './lowercase.ts';

const SPECIAL = /["'\\^ ,;\t\r\n]/;

export const cmdLine: TransformationDef = {
  name: 'cmdLine',
  transform(input) {
    if (!SPECIAL.test(input)) return asciiLower(input);
    let out = '';
    let space = false;
    for (let i = 0; i < input.length; i++) {
      const c = input[i]!;
      switch (c) {
        case '"':
        case "'":
        case '\\':
        case '^':
          break;
        case ' ':
        case ',':
        case ';':
        case '\t':
        case '\r':
        case '\n':
          if (!space) {
            out += ' ';
            space = true;
          }
          break;
        case '/':
        case '(':
          if (space) out = out.slice(0, -1);
          space = false;
          out += c;
          break;
        default:
          out += c;
          space = false;
      }
    }
    out = asciiLower(out);
    return out === input ? input : out;
  },
};
