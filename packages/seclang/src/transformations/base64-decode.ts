// base64Decode: decodes base64 up to the first character outside the alphabet.
// Example: t:none,t:base64Decode
import type { TransformationDef } from '../types.ts';

const VALUES = new Int8Array(128).fill(-1);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries()) {
  VALUES[c.charCodeAt(0)] = i;
}

export function decodeBase64(input: string): string {
  const codes: number[] = [];
  let acc = 0;
  let bits = 0;
  let out = '';
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    const v = c < 128 ? VALUES[c]! : -1;
    if (v < 0) break;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      codes.push((acc >> bits) & 0xff);
      if (codes.length === 4096) {
        out += String.fromCharCode(...codes);
        codes.length = 0;
      }
    }
  }
  return codes.length === 0 ? out : out + String.fromCharCode(...codes);
}

export const base64Decode: TransformationDef = {
  name: 'base64Decode',
  transform: decodeBase64,
};
