// urlDecode: `%HH` to the byte and `+` to a space; invalid escapes stay as they are.
// Example: SecRule ARGS "@rx <script" "id:1,t:none,t:urlDecode"
import type { TransformationDef } from '../types.ts';
import { hexByte } from '../util/bytes.ts';

export function decodeUrl(input: string, unicode: boolean, plusAsSpace = true): string {
  if (input.indexOf('%') < 0 && (!plusAsSpace || input.indexOf('+') < 0)) return input;
  let out = '';
  let start = 0;
  const n = input.length;
  for (let i = 0; i < n; i++) {
    const c = input.charCodeAt(i);
    if (c === 43 && plusAsSpace) {
      out += `${input.slice(start, i)} `;
      start = i + 1;
    } else if (c === 37) {
      if (unicode && (input.charCodeAt(i + 1) | 0x20) === 0x75) {
        const b = i + 5 < n ? hexByte(input, i + 4) : -1;
        if (b >= 0 && hexByte(input, i + 2) >= 0) {
          const high = input.slice(i + 2, i + 4).toLowerCase();
          const byte = high === 'ff' && b > 0 && b < 0x5f ? b + 0x20 : b;
          out += input.slice(start, i) + String.fromCharCode(byte);
          i += 5;
          start = i + 1;
        }
        continue;
      }
      const b = i + 2 < n ? hexByte(input, i + 1) : -1;
      if (b >= 0) {
        out += input.slice(start, i) + String.fromCharCode(b);
        i += 2;
        start = i + 1;
      }
    }
  }
  return start === 0 ? input : out + input.slice(start);
}

export const urlDecode: TransformationDef = {
  name: 'urlDecode',
  transform: (input) => decodeUrl(input, false),
};
