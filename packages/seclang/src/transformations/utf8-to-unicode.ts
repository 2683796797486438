// utf8toUnicode: each valid multi-byte UTF-8 sequence becomes `%uHHHH` (lower-case hex); other
// bytes stay. Example: t:none,t:utf8toUnicode,t:urlDecodeUni
import type { TransformationDef } from '../types.ts';

const HIGH = /[\x80-\xff]/;

function cont(input: string, i: number): number {
  const c = input.charCodeAt(i);
  return (c & 0xc0) === 0x80 ? c & 0x3f : -1;
}

export const utf8toUnicode: TransformationDef = {
  name: 'utf8toUnicode',
  transform(input) {
    if (!HIGH.test(input)) return input;
    let out = '';
    const n = input.length;
    let i = 0;
    while (i < n) {
      const c = input.charCodeAt(i);
      let code = -1;
      let len = 1;
      if (c >= 0xc2 && c <= 0xdf && i + 1 < n) {
        const b = cont(input, i + 1);
        if (b >= 0) [code, len] = [((c & 0x1f) << 6) | b, 2];
      } else if (c >= 0xe0 && c <= 0xef && i + 2 < n) {
        const b1 = cont(input, i + 1);
        const b2 = cont(input, i + 2);
        if (b1 >= 0 && b2 >= 0) [code, len] = [((c & 0x0f) << 12) | (b1 << 6) | b2, 3];
      } else if (c >= 0xf0 && c <= 0xf4 && i + 3 < n) {
        const b1 = cont(input, i + 1);
        const b2 = cont(input, i + 2);
        const b3 = cont(input, i + 3);
        if (b1 >= 0 && b2 >= 0 && b3 >= 0)
          [code, len] = [((c & 0x07) << 18) | (b1 << 12) | (b2 << 6) | b3, 4];
      }
      if (code >= 0) out += `%u${code.toString(16).padStart(4, '0')}`;
      else out += input[i];
      i += len;
    }
    return out;
  },
};
