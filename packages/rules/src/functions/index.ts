// The function registry: every function of the Rules language, by name. A duplicate name is an
// error. `filterFunctions` leaves out those Cloudflare allows only in rewrite expressions.

import { all } from './all.ts';
import { any } from './any.ts';
import { cidr } from './cidr.ts';
import { cidr6 } from './cidr6.ts';
import { concat } from './concat.ts';
import { decodeBase64 } from './decode-base64.ts';
import type { FunctionDef } from './definition.ts';
import { endsWith } from './ends-with.ts';
import { isTimedHmacValidV0 } from './is-timed-hmac-valid-v0.ts';
import { join } from './join.ts';
import { len } from './len.ts';
import { lookupJsonInteger } from './lookup-json-integer.ts';
import { lookupJsonString } from './lookup-json-string.ts';
import { lower } from './lower.ts';
import { regexReplace } from './regex-replace.ts';
import { removeBytes } from './remove-bytes.ts';
import { removeQueryArgs } from './remove-query-args.ts';
import { split } from './split.ts';
import { startsWith } from './starts-with.ts';
import { substring } from './substring.ts';
import { toStringFn } from './to-string.ts';
import { upper } from './upper.ts';
import { urlDecode } from './url-decode.ts';
import { uuidv4 } from './uuidv4.ts';
import { wildcardReplace } from './wildcard-replace.ts';

export type { ArgFail, ArgInfo, CompiledArg, Evaluator, FunctionDef, LiteralValue } from './definition.ts';

function registry(defs: readonly FunctionDef[]): readonly FunctionDef[] {
  const seen = new Set<string>();
  for (const def of defs) {
    if (seen.has(def.name)) throw new Error(`function ${def.name} is registered twice`);
    seen.add(def.name);
  }
  return Object.freeze([...defs]);
}

/** Every function, filters and rewrites alike. */
export const standardFunctions: readonly FunctionDef[] = registry([
  any,
  all,
  cidr,
  cidr6,
  concat,
  decodeBase64,
  endsWith,
  isTimedHmacValidV0,
  join,
  len,
  lookupJsonInteger,
  lookupJsonString,
  lower,
  regexReplace,
  removeBytes,
  removeQueryArgs,
  split,
  startsWith,
  substring,
  toStringFn,
  upper,
  urlDecode,
  uuidv4,
  wildcardReplace,
]);

/** The functions allowed in filter expressions (WAF custom and managed rules). */
export const filterFunctions: readonly FunctionDef[] = standardFunctions.filter((f) => !f.rewriteOnly);
