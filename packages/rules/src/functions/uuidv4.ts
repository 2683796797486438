// uuidv4(source Bytes) → Bytes: a version-4 UUID made from the source's random bytes.
// Example: uuidv4(cf.random_seed) (rewrite expressions)

import { Bytes } from '../types.ts';
import type { FunctionDef } from './definition.ts';
import { expectType } from './helpers.ts';

export const uuidv4: FunctionDef = {
  name: 'uuidv4',
  summary: 'uuidv4(source: Bytes) → Bytes: a UUIDv4 made from the random bytes of source',
  minArgs: 1,
  maxArgs: 1,
  rewriteOnly: true,
  check(args, fail) {
    expectType(args, 0, Bytes, fail);
    return Bytes;
  },
  compile([a]) {
    const source = a!.evaluate;
    return (ctx) => {
      const v = source(ctx) as string | undefined;
      if (v === undefined) return undefined;
      const b = new Array<number>(16).fill(0).map((_, i) => v.charCodeAt(i % Math.max(1, v.length)) || 0);
      b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
      b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
      const h = b.map((x) => x.toString(16).padStart(2, '0')).join('');
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    };
  },
};
