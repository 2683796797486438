// regex_replace(source Bytes, regex Bytes literal, replacement Bytes literal) → Bytes: replaces
// the first match; `${1}`…`${8}` refer to capture groups, `$$` is a literal `$`. Once per
// expression; in Cloudflare only in rewrite expressions.
// Example: regex_replace(http.request.uri.path, "^/foo/(.*)$", "/bar/${1}")

import { reasons } from '../errors.ts';
import { defaultLimits } from '../limits.ts';
import { Bytes } from '../types.ts';
import { compileRegex, RegexError } from '../values/regex.ts';
import type { FunctionDef } from './definition.ts';
import { expectLiteral, expectType } from './helpers.ts';
import { compileReplacement } from './replacement.ts';

export const regexReplace: FunctionDef = {
  name: 'regex_replace',
  summary: 'regex_replace(source: Bytes, regex: literal, replacement: literal) → Bytes: first match replaced',
  minArgs: 3,
  maxArgs: 3,
  oncePerExpression: true,
  rewriteOnly: true,
  check(args, fail) {
    expectType(args, 0, Bytes, fail);
    expectType(args, 1, Bytes, fail);
    expectType(args, 2, Bytes, fail);
    const pattern = expectLiteral(args, 1, fail) as string;
    try {
      compileRegex(pattern, defaultLimits.maxRegexLength);
    } catch (e) {
      if (e instanceof RegexError) fail(1, reasons.argumentValue(1, e.message));
      throw e;
    }
    const replacement = compileReplacement(expectLiteral(args, 2, fail) as string);
    if (typeof replacement === 'string') fail(2, reasons.argumentValue(2, replacement));
    return Bytes;
  },
  compile([a, b, c]) {
    const source = a!.evaluate;
    const { regexp } = compileRegex(b!.literal as string, Number.POSITIVE_INFINITY);
    const replace = compileReplacement(c!.literal as string);
    if (typeof replace === 'string') throw new Error(replace);
    return (ctx) => {
      const v = source(ctx) as string | undefined;
      if (v === undefined) return undefined;
      const m = regexp.exec(v);
      if (!m) return v;
      return v.slice(0, m.index) + replace(m) + v.slice(m.index + m[0].length);
    };
  },
};
