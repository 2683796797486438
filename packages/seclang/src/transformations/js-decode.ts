// jsDecode: JavaScript escapes `\uHHHH` (low byte, full-width folded), `\xHH`, octal `\OOO`,
// `\a\b\f\n\r\t\v`, and `\c` → c. Example: t:none,t:jsDecode
import type { TransformationDef } from '../types.ts';
import { hexByte, wideToByte } from '../util/bytes.ts';

const SIMPLE: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

export const jsDecode: TransformationDef = {
  name: 'jsDecode',
  transform(input) {
    if (input.indexOf('\\') < 0) return input;
    let out = '';
    const n = input.length;
    let i = 0;
    while (i < n) {
      const c = input[i]!;
      if (c !== '\\' || i + 1 >= n) {
        out += c;
        i++;
        continue;
      }
      const e = input[i + 1]!;
      if ((e === 'u' || e === 'U') && i + 5 < n && hexByte(input, i + 2) >= 0 && hexByte(input, i + 4) >= 0) {
        out += String.fromCharCode(wideToByte(input, i + 2));
        i += 6;
      } else if ((e === 'x' || e === 'X') && i + 3 < n && hexByte(input, i + 2) >= 0) {
        out += String.fromCharCode(hexByte(input, i + 2));
        i += 4;
      } else if (e >= '0' && e <= '7') {
        let j = i + 1;
        let v = 0;
        while (j < n && j < i + 4 && input[j]! >= '0' && input[j]! <= '7') {
          const next = v * 8 + (input.charCodeAt(j) - 48);
          if (next > 0xff) break;
          v = next;
          j++;
        }
        out += String.fromCharCode(v);
        i = j;
      } else {
        out += SIMPLE[e] ?? e;
        i += 2;
      }
    }
    return out;
  },
};
