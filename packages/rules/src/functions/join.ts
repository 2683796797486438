// join(items Array(Bytes), separator Bytes) → Bytes: the items with the separator between them.
// Example: join(http.request.headers.names, ",")

import { arrayOf, Bytes } from '../types.ts';
import type { FunctionDef } from './definition.ts';
import { expectType } from './helpers.ts';

export const join: FunctionDef = {
  name: 'join',
  summary: 'join(items: Array(Bytes), separator: Bytes) → Bytes',
  minArgs: 2,
  maxArgs: 2,
  check(args, fail) {
    expectType(args, 0, arrayOf(Bytes), fail);
    expectType(args, 1, Bytes, fail);
    return Bytes;
  },
  compile([a, b]) {
    const items = a!.evaluate;
    const sep = b!.evaluate;
    return (ctx) => {
      const v = items(ctx) as readonly string[] | undefined;
      const s = sep(ctx) as string | undefined;
      return v === undefined || s === undefined ? undefined : v.join(s);
    };
  },
};
