// htmlEntityDecode: `&#DDD;`, `&#xHH;` (the `;` optional) and &quot; &amp; &lt; &gt; &nbsp;
// to bytes; numeric values keep their low byte. Example: t:none,t:htmlEntityDecode
import type { TransformationDef } from '../types.ts';
import { hexValue } from '../util/bytes.ts';

const NAMED: Record<string, number> = { quot: 34, amp: 38, lt: 60, gt: 62, nbsp: 160 };

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function decodeAt(input: string, i: number): [string, number] | undefined {
  const n = input.length;
  if (input.charCodeAt(i + 1) === 35) {
    const hex = (input.charCodeAt(i + 2) | 0x20) === 0x78;
    let j = i + (hex ? 3 : 2);
    const start = j;
    let value = 0;
    while (j < n) {
      const d = hex ? hexValue(input.charCodeAt(j)) : input.charCodeAt(j) - 48;
      if (d < 0 || d > (hex ? 15 : 9)) break;
      value = (value * (hex ? 16 : 10) + d) % 0x1000000;
      j++;
    }
    if (j === start) return undefined;
    if (input.charCodeAt(j) === 59) j++;
    return [String.fromCharCode(value & 0xff), j];
  }
  let j = i + 1;
  while (j < n && j - i <= 5 && isLetter(input.charCodeAt(j))) j++;
  if (j - i < 3 || j - i > 5) return undefined; // the names are 2 to 4 letters long
  const name = input.slice(i + 1, j).toLowerCase();
  const code = NAMED[name];
  if (code === undefined) return undefined;
  if (input.charCodeAt(j) === 59) j++;
  return [String.fromCharCode(code), j];
}

export const htmlEntityDecode: TransformationDef = {
  name: 'htmlEntityDecode',
  transform(input) {
    if (input.indexOf('&') < 0) return input;
    let out = '';
    let start = 0;
    for (let i = input.indexOf('&'); i >= 0 && i < input.length; i = input.indexOf('&', i + 1)) {
      const hit = decodeAt(input, i);
      if (!hit) continue;
      out += input.slice(start, i) + hit[0];
      start = hit[1];
      i = hit[1] - 1;
    }
    return start === 0 ? input : out + input.slice(start);
  },
};
