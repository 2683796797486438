// cssDecode: CSS 2 escapes: `\` + 1–6 hex digits (low byte, full-width folded; one following
// whitespace eaten), `\` + newline removed, `\c` → c. Example: t:none,t:cssDecode
import type { TransformationDef } from '../types.ts';
import { hexValue, isSpaceCode } from '../util/bytes.ts';

export const cssDecode: TransformationDef = {
  name: 'cssDecode',
  transform(input) {
    if (input.indexOf('\\') < 0) return input;
    let out = '';
    const n = input.length;
    let i = 0;
    while (i < n) {
      const c = input[i]!;
      if (c !== '\\') {
        out += c;
        i++;
        continue;
      }
      if (i + 1 >= n) {
        i++;
        continue;
      }
      let j = i + 1;
      while (j < n && j - i <= 6 && hexValue(input.charCodeAt(j)) >= 0) j++;
      const digits = j - i - 1;
      if (digits > 0) {
        let v = hexValue(input.charCodeAt(j - 1));
        if (digits >= 2) v += 16 * hexValue(input.charCodeAt(j - 2));
        if (digits >= 4 && v > 0 && v < 0x5f) {
          const hi = input.slice(j - 4, j - 2).toLowerCase();
          if (hi === 'ff') v += 0x20;
        }
        out += String.fromCharCode(v);
        if (j < n && isSpaceCode(input.charCodeAt(j))) j++;
        i = j;
      } else if (input[i + 1] === '\n') {
        i += 2;
      } else {
        out += input[i + 1];
        i += 2;
      }
    }
    return out;
  },
};
