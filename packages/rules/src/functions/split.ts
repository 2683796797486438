// split(input Bytes, separator Bytes literal (non-empty), limit Int literal 1..128) → Array(Bytes):
// at most `limit` pieces; the last piece keeps the rest.
// Example: split(http.request.headers["x-categories"][0], ",", 64)

import { reasons } from '../errors.ts';
import { arrayOf, Bytes, Int } from '../types.ts';
import type { FunctionDef } from './definition.ts';
import { expectIntLiteral, expectLiteral, expectType } from './helpers.ts';

export const split: FunctionDef = {
  name: 'split',
  summary: 'split(input: Bytes, separator: literal, limit: 1..128) → Array(Bytes)',
  minArgs: 3,
  maxArgs: 3,
  rewriteOnly: true,
  check(args, fail) {
    expectType(args, 0, Bytes, fail);
    expectType(args, 1, Bytes, fail);
    if (expectLiteral(args, 1, fail) === '')
      fail(1, reasons.argumentValue(1, 'the separator must not be empty'));
    expectType(args, 2, Int, fail);
    expectIntLiteral(args, 2, 1, 128, fail);
    return arrayOf(Bytes);
  },
  compile([a, b, c]) {
    const input = a!.evaluate;
    const sep = b!.literal as string;
    const limit = c!.literal as number;
    return (ctx) => {
      const v = input(ctx) as string | undefined;
      if (v === undefined) return undefined;
      const out: string[] = [];
      let pos = 0;
      while (out.length < limit - 1) {
        const at = v.indexOf(sep, pos);
        if (at === -1) break;
        out.push(v.slice(pos, at));
        pos = at + sep.length;
      }
      out.push(v.slice(pos));
      return out;
    };
  },
};
