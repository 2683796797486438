// remove_query_args(field Bytes, name Bytes, …) → Bytes: the query string without the named
// parameters (every occurrence); the others keep their order. Rewrite expressions only.
// Example: remove_query_args(http.request.uri.query, "utm_source", "utm_medium")

import { Bytes } from '../types.ts';
import type { FunctionDef } from './definition.ts';
import { expectField, expectType } from './helpers.ts';

export const removeQueryArgs: FunctionDef = {
  name: 'remove_query_args',
  summary: 'remove_query_args(query: Bytes field, name: Bytes, …) → Bytes',
  minArgs: 2,
  maxArgs: Number.POSITIVE_INFINITY,
  rewriteOnly: true,
  check(args, fail) {
    for (let i = 0; i < args.length; i++) expectType(args, i, Bytes, fail);
    expectField(args, 0, fail);
    return Bytes;
  },
  compile([a, ...names]) {
    const query = a!.evaluate;
    const removers = names.map((n) => n.evaluate);
    return (ctx) => {
      const q = query(ctx) as string | undefined;
      if (q === undefined) return undefined;
      const drop = new Set(removers.map((r) => r(ctx) as string | undefined));
      return q
        .split('&')
        .filter((pair) => !drop.has(pair.split('=', 1)[0]))
        .join('&');
    };
  },
};
