// urlDecode: `%HH` to the byte and `+` to a space; invalid escapes stay as they are.
// Example: SecRule ARGS "@rx <script" "id:1,t:none,t:urlDecode"
import type { TransformationDef } from '../types.ts';
import { hexByte } from '../util/bytes.ts';

export function decodeUrl(input: string, unicode: boolean, plusAsSpace = true): string {
  // '+' is neither a hex digit nor 'u', so turning it into a space first leaves every escape as it was
  if (plusAsSpace && input.indexOf('+') >= 0) return decodeUrl(input.replaceAll('+', ' '), unicode, false);
  let pct = input.indexOf('%');
  if (pct < 0) return input;
  // jumps from one '%' to the next; the text between is copied as slices
  let out = '';
  let start = 0;
  const n = input.length;
  while (pct >= 0) {
    let i = pct;
    if (unicode && (input.charCodeAt(i + 1) | 0x20) === 0x75) {
      const b = i + 5 < n ? hexByte(input, i + 4) : -1;
      if (b >= 0 && hexByte(input, i + 2) >= 0) {
        const high = input.slice(i + 2, i + 4).toLowerCase();
        const byte = high === 'ff' && b > 0 && b < 0x5f ? b + 0x20 : b;
        out += input.slice(start, i) + String.fromCharCode(byte);
        i += 5;
        start = i + 1;
      }
    } else {
      const b = i + 2 < n ? hexByte(input, i + 1) : -1;
      if (b >= 0) {
        out += input.slice(start, i) + String.fromCharCode(b);
        i += 2;
        start = i + 1;
      }
    }
    pct = input.indexOf('%', i + 1);
  }
  return start === 0 ? input : out + input.slice(start);
}

export const urlDecode: TransformationDef = {
  name: 'urlDecode',
  transform: (input) => decodeUrl(input, false),
};
