// lower(Bytes) → Bytes: ASCII uppercase letters to lowercase; other bytes unchanged.
// Example: lower(http.host) == "www.example.com"

import { Bytes } from '../types.ts';
import { asciiLower } from '../values/bytes.ts';
import type { FunctionDef } from './definition.ts';
import { expectType } from './helpers.ts';

export const lower: FunctionDef = {
  name: 'lower',
  summary: 'lower(Bytes) → Bytes: ASCII letters lowercased',
  minArgs: 1,
  maxArgs: 1,
  check(args, fail) {
    expectType(args, 0, Bytes, fail);
    return Bytes;
  },
  compile([a]) {
    const value = a!.evaluate;
    return (ctx) => {
      const v = value(ctx) as string | undefined;
      return v === undefined ? undefined : asciiLower(v);
    };
  },
};
