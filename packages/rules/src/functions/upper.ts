// upper(Bytes) → Bytes: ASCII lowercase letters to uppercase; other bytes unchanged.
// Example: upper(http.request.method) == "POST"

import { Bytes } from '../types.ts';
import { asciiUpper } from '../values/bytes.ts';
import type { FunctionDef } from './definition.ts';
import { expectType } from './helpers.ts';

export const upper: FunctionDef = {
  name: 'upper',
  summary: 'upper(Bytes) → Bytes: ASCII letters uppercased',
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
      return v === undefined ? undefined : asciiUpper(v);
    };
  },
};
