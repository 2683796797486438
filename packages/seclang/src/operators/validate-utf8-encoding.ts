// validateUtf8Encoding: matches when the bytes are not valid UTF-8 (truncated or invalid
// sequences, overlong forms, code points above U+10FFFF). Example: "@validateUtf8Encoding"
import type { OperatorDef, OperatorFn } from '../types.ts';

export function invalidUtf8(input: string): boolean {
  const n = input.length;
  for (let i = 0; i < n; i++) {
    const c = input.charCodeAt(i);
    if (c < 0x80) continue;
    let len: number;
    let min: number;
    if ((c & 0xe0) === 0xc0) [len, min] = [2, 0x80];
    else if ((c & 0xf0) === 0xe0) [len, min] = [3, 0x800];
    else if ((c & 0xf8) === 0xf0) [len, min] = [4, 0x10000];
    else return true;
    if (i + len > n) return true;
    let code = c & (0xff >> (len + 1));
    for (let k = 1; k < len; k++) {
      const b = input.charCodeAt(i + k);
      if ((b & 0xc0) !== 0x80) return true;
      code = (code << 6) | (b & 0x3f);
    }
    if (code < min || code > 0x10ffff) return true;
    i += len - 1;
  }
  return false;
}

export const validateUtf8Encoding: OperatorDef = {
  name: 'validateUtf8Encoding',
  compile: () => {
    const fn: OperatorFn = (_tx, input) => invalidUtf8(input);
    fn.pure = true;
    return fn;
  },
};
