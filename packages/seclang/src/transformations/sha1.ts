// sha1: the binary SHA-1 digest (20 bytes). Example: t:none,t:sha1,t:hexEncode
// CRS hashes the User-Agent of every request (901318); recent inputs are remembered across
// requests, since hashing costs more than the rest of that rule.
import { createHash } from 'node:crypto';
import type { TransformationDef } from '../types.ts';

const recent = new Map<string, string>();

export const sha1: TransformationDef = {
  name: 'sha1',
  transform(input) {
    const hit = recent.get(input);
    if (hit !== undefined) return hit;
    const out = createHash('sha1').update(input, 'latin1').digest().toString('latin1');
    if (input.length <= 1024) {
      if (recent.size >= 512) recent.delete(recent.keys().next().value as string);
      recent.set(input, out);
    }
    return out;
  },
};
