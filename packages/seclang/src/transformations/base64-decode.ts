// base64Decode: decodes base64 up to the first character outside the alphabet.
// Example: t:none,t:base64Decode
import type { TransformationDef } from '../types.ts';

const VALUES = new Int8Array(128).fill(-1);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries()) {
  VALUES[c.charCodeAt(0)] = i;
}

const SCRATCH = Buffer.allocUnsafe(8192);

export function decodeBase64(input: string): string {
  let len = 0;
  while (len < input.length) {
    const c = input.charCodeAt(len);
    if (c >= 128 || VALUES[c]! < 0) break;
    len++;
  }
  const size = Math.floor((len * 6) / 8);
  const out = size <= SCRATCH.length ? SCRATCH : Buffer.allocUnsafe(size);
  let n = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < len; i++) {
    acc = ((acc << 6) | VALUES[input.charCodeAt(i)]!) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
    }
  }
  return out.toString('latin1', 0, n);
}

export const base64Decode: TransformationDef = {
  name: 'base64Decode',
  transform: decodeBase64,
};
