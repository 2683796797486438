// ends_with(source Bytes field, suffix Bytes) → Bool.
// Example: ends_with(http.request.uri.path, ".html")

import { Bool, Bytes } from '../types.ts';
import type { FunctionDef } from './definition.ts';
import { expectField, expectType } from './helpers.ts';

export const endsWith: FunctionDef = {
  name: 'ends_with',
  summary: 'ends_with(source: Bytes field, suffix: Bytes) → Bool',
  minArgs: 2,
  maxArgs: 2,
  check(args, fail) {
    expectType(args, 0, Bytes, fail);
    expectField(args, 0, fail);
    expectType(args, 1, Bytes, fail);
    return Bool;
  },
  compile([a, b]) {
    const source = a!.evaluate;
    const suffix = b!.evaluate;
    const literal = b!.literal;
    if (typeof literal === 'string') {
      return (ctx) => {
        const s = source(ctx) as string | undefined;
        return s === undefined ? undefined : s.endsWith(literal);
      };
    }
    return (ctx) => {
      const s = source(ctx) as string | undefined;
      const p = suffix(ctx) as string | undefined;
      return s === undefined || p === undefined ? undefined : s.endsWith(p);
    };
  },
};
