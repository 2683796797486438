// to_string(Int | Bool | Ip) → Bytes: the value's text (`5`, `true`, `192.0.2.1`).
// Example: to_string(cf.bot_management.score) (rewrite expressions)

import { reasons } from '../errors.ts';
import { Bytes, typeName } from '../types.ts';
import type { FunctionDef } from './definition.ts';
import { arg } from './helpers.ts';

export const toStringFn: FunctionDef = {
  name: 'to_string',
  summary: 'to_string(Int | Bool | Ip) → Bytes: the value as text',
  minArgs: 1,
  maxArgs: 1,
  rewriteOnly: true,
  check(args, fail) {
    const t = arg(args, 0).type;
    if (t.kind !== 'Int' && t.kind !== 'Bool' && t.kind !== 'Ip') {
      fail(0, reasons.argumentType(0, 'Int, Bool or Ip', typeName(t)));
    }
    return Bytes;
  },
  compile([a]) {
    const value = a!.evaluate;
    return (ctx) => {
      const v = value(ctx);
      return v === undefined ? undefined : String(v);
    };
  },
};
