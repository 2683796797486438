// concat(Bytes…) → Bytes, or concat(Array(T)…) → Array(T): joins its arguments in order.
// Example: concat("/archive", http.request.uri.path) eq "/archive/index.html"

import { reasons } from '../errors.ts';
import { sameType, typeName } from '../types.ts';
import type { FunctionDef } from './definition.ts';
import { arg } from './helpers.ts';

export const concat: FunctionDef = {
  name: 'concat',
  summary: 'concat(Bytes | Array(T), …) → Bytes | Array(T): the arguments joined in order',
  minArgs: 1,
  maxArgs: Number.POSITIVE_INFINITY,
  check(args, fail) {
    const first = arg(args, 0).type;
    if (first.kind !== 'Bytes' && first.kind !== 'Array') {
      fail(0, reasons.argumentType(0, 'Bytes or Array', typeName(first)));
    }
    args.forEach((a, i) => {
      if (!sameType(a.type, first)) fail(i, reasons.argumentType(i, typeName(first), typeName(a.type)));
    });
    return first;
  },
  compile(args) {
    const parts = args.map((a) => a.evaluate);
    return (ctx) => {
      let bytes: string | undefined;
      let array: unknown[] | undefined;
      for (const part of parts) {
        const v = part(ctx);
        if (v === undefined) return undefined;
        if (typeof v === 'string') bytes = (bytes ?? '') + v;
        else array = (array ?? []).concat(v as unknown[]);
      }
      return bytes ?? array;
    };
  },
};
