// starts_with(source Bytes field, prefix Bytes) → Bool.
// Example: starts_with(http.request.uri.path, "/blog")

import { Bool, Bytes } from '../types.ts';
import type { FunctionDef } from './definition.ts';
import { expectField, expectType } from './helpers.ts';

export const startsWith: FunctionDef = {
  name: 'starts_with',
  summary: 'starts_with(source: Bytes field, prefix: Bytes) → Bool',
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
    const prefix = b!.evaluate;
    const literal = b!.literal;
    if (typeof literal === 'string') {
      return (ctx) => {
        const s = source(ctx) as string | undefined;
        return s === undefined ? undefined : s.startsWith(literal);
      };
    }
    return (ctx) => {
      const s = source(ctx) as string | undefined;
      const p = prefix(ctx) as string | undefined;
      return s === undefined || p === undefined ? undefined : s.startsWith(p);
    };
  },
};
