// remove_bytes(Bytes, bytes Bytes literal) → Bytes: the value without any of the given bytes.
// Example: remove_bytes(http.host, "\x2e\x77") == "examplecom"   (for www.example.com)

import { Bytes } from '../types.ts';
import type { FunctionDef } from './definition.ts';
import { expectLiteral, expectType } from './helpers.ts';

export const removeBytes: FunctionDef = {
  name: 'remove_bytes',
  summary: 'remove_bytes(source: Bytes, bytes: literal) → Bytes: every listed byte removed',
  minArgs: 2,
  maxArgs: 2,
  check(args, fail) {
    expectType(args, 0, Bytes, fail);
    expectType(args, 1, Bytes, fail);
    expectLiteral(args, 1, fail);
    return Bytes;
  },
  compile([a, b]) {
    const source = a!.evaluate;
    const remove = new Set(b!.literal as string);
    return (ctx) => {
      const v = source(ctx) as string | undefined;
      if (v === undefined) return undefined;
      let out = '';
      for (let i = 0; i < v.length; i++) {
        const ch = v[i] as string;
        if (!remove.has(ch)) out += ch;
      }
      return out;
    };
  },
};
