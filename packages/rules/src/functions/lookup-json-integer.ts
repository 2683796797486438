// lookup_json_integer(field Bytes, key Bytes | Int, …) → Int: the integer at that path of the
// JSON document, or missing (floats are not integers).
// Example: lookup_json_integer(http.request.body.raw, "product", "id") == 356

import { Int } from '../types.ts';
import type { FunctionDef } from './definition.ts';
import { checkJsonLookup, compileJsonLookup } from './json-path.ts';

export const lookupJsonInteger: FunctionDef = {
  name: 'lookup_json_integer',
  summary: 'lookup_json_integer(json: Bytes, key: Bytes | Int, …) → Int: the integer at that path',
  minArgs: 2,
  maxArgs: Number.POSITIVE_INFINITY,
  check(args, fail) {
    checkJsonLookup(args, fail);
    return Int;
  },
  compile(args) {
    const lookup = compileJsonLookup(args);
    return (ctx) => {
      const v = lookup(ctx);
      return typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined;
    };
  },
};
