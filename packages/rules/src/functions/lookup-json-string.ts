// lookup_json_string(field Bytes, key Bytes | Int, …) → Bytes: the string at that path of the
// JSON document, or missing.
// Example: lookup_json_string(http.request.body.raw, "network", "name") == "cloudflare"

import { Bytes } from '../types.ts';
import { utf8ToBytes } from '../values/bytes.ts';
import type { FunctionDef } from './definition.ts';
import { checkJsonLookup, compileJsonLookup } from './json-path.ts';

export const lookupJsonString: FunctionDef = {
  name: 'lookup_json_string',
  summary: 'lookup_json_string(json: Bytes, key: Bytes | Int, …) → Bytes: the string at that path',
  minArgs: 2,
  maxArgs: Number.POSITIVE_INFINITY,
  check(args, fail) {
    checkJsonLookup(args, fail);
    return Bytes;
  },
  compile(args) {
    const lookup = compileJsonLookup(args);
    return (ctx) => {
      const v = lookup(ctx);
      return typeof v === 'string' ? utf8ToBytes(v) : undefined;
    };
  },
};
