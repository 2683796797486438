// Operator registry: name → definition; duplicates refused, lookup case-insensitive.

import type { OperatorDef } from '../types.ts';
import { detectSQLi } from './detect-sqli.ts';
import { detectXSS } from './detect-xss.ts';
import { geoLookup } from './geo-lookup.ts';
import { ipMatch } from './ip-match.ts';
import { ipMatchF, ipMatchFromFile } from './ip-match-from-file.ts';
import { eq, ge, gt, le, lt } from './numeric.ts';
import { pm } from './pm.ts';
import { pmFromFile, pmf } from './pm-from-file.ts';
import { rx } from './rx.ts';
import { beginsWith, contains, containsWordOp, endsWith, streq, strmatch, within } from './string-compare.ts';
import { noMatch, rbl, unconditionalMatch } from './stubs.ts';
import { validateByteRange } from './validate-byte-range.ts';
import { validateUrlEncoding } from './validate-url-encoding.ts';
import { validateUtf8Encoding } from './validate-utf8-encoding.ts';

const registry = new Map<string, OperatorDef>();

export function registerOperator(def: OperatorDef): void {
  const key = def.name.toLowerCase();
  if (registry.has(key)) throw new Error(`operator @${def.name} is already registered`);
  registry.set(key, def);
}

export function getOperator(name: string): OperatorDef | undefined {
  return registry.get(name.toLowerCase());
}

for (const def of [
  beginsWith,
  contains,
  containsWordOp,
  detectSQLi,
  detectXSS,
  endsWith,
  eq,
  ge,
  geoLookup,
  gt,
  ipMatch,
  ipMatchF,
  ipMatchFromFile,
  le,
  lt,
  noMatch,
  pm,
  pmf,
  pmFromFile,
  rbl,
  rx,
  streq,
  strmatch,
  unconditionalMatch,
  validateByteRange,
  validateUrlEncoding,
  validateUtf8Encoding,
  within,
]) {
  registerOperator(def);
}
