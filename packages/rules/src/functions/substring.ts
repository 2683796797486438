// substring(field Bytes, start Int, end? Int) → Bytes: bytes from `start` up to (not including)
// `end`; negative indexes count from the end.
// Example: substring(http.request.body.raw, 0, -2)

import { Bytes, Int } from '../types.ts';
import type { FunctionDef } from './definition.ts';
import { expectType } from './helpers.ts';

export const substring: FunctionDef = {
  name: 'substring',
  summary: 'substring(field: Bytes, start: Int, end?: Int) → Bytes (negative indexes count from the end)',
  minArgs: 2,
  maxArgs: 3,
  check(args, fail) {
    expectType(args, 0, Bytes, fail);
    expectType(args, 1, Int, fail);
    if (args.length > 2) expectType(args, 2, Int, fail);
    return Bytes;
  },
  compile([a, b, c]) {
    const field = a!.evaluate;
    const start = b!.evaluate;
    const end = c?.evaluate;
    return (ctx) => {
      const v = field(ctx) as string | undefined;
      const s = start(ctx) as number | undefined;
      const e = end ? (end(ctx) as number | undefined) : v?.length;
      if (v === undefined || s === undefined || e === undefined) return undefined;
      return v.slice(s, e);
    };
  },
};
