// len(Bytes | Array | Map) → Int: the byte length, or the number of elements.
// Example: len(http.request.headers["x-token"]) >= 0   (true when the header is present)

import { reasons } from '../errors.ts';
import { Int, typeName } from '../types.ts';
import type { FunctionDef } from './definition.ts';
import { arg } from './helpers.ts';

export const len: FunctionDef = {
  name: 'len',
  summary: 'len(Bytes | Array | Map) → Int: byte length or number of elements',
  minArgs: 1,
  maxArgs: 1,
  check(args, fail) {
    const t = arg(args, 0).type;
    if (t.kind !== 'Bytes' && t.kind !== 'Array' && t.kind !== 'Map') {
      fail(0, reasons.argumentType(0, 'Bytes, Array or Map', typeName(t)));
    }
    return Int;
  },
  compile([a]) {
    const value = a!.evaluate;
    return (ctx) => {
      const v = value(ctx) as string | readonly unknown[] | ReadonlyMap<string, unknown> | undefined;
      if (v === undefined) return undefined;
      return v instanceof Map ? v.size : (v as string | readonly unknown[]).length;
    };
  },
};
