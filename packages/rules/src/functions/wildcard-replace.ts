// wildcard_replace(source Bytes field, pattern literal, replacement literal, flags? "s") → Bytes:
// when the whole source matches the wildcard pattern (case-insensitive unless "s"), returns the
// replacement with `${n}` set to what the n-th `*` matched (shortest first); else the source.
// Example: wildcard_replace(http.request.uri.path, "/apps/*", "/${1}")

import { reasons } from '../errors.ts';
import { Bytes } from '../types.ts';
import { asciiLower } from '../values/bytes.ts';
import { parseWildcard, wildcardCaptures } from '../values/wildcard.ts';
import type { FunctionDef } from './definition.ts';
import { expectField, expectLiteral, expectType } from './helpers.ts';
import { compileReplacement } from './replacement.ts';

export const wildcardReplace: FunctionDef = {
  name: 'wildcard_replace',
  summary:
    'wildcard_replace(source: Bytes field, pattern: literal, replacement: literal, flags?: "s") → Bytes',
  minArgs: 3,
  maxArgs: 4,
  oncePerExpression: true,
  rewriteOnly: true,
  check(args, fail) {
    for (let i = 0; i < args.length; i++) expectType(args, i, Bytes, fail);
    expectField(args, 0, fail);
    const parsed = parseWildcard(expectLiteral(args, 1, fail) as string, Number.POSITIVE_INFINITY);
    if (typeof parsed === 'string') fail(1, reasons.argumentValue(1, parsed));
    const replacement = compileReplacement(expectLiteral(args, 2, fail) as string);
    if (typeof replacement === 'string') fail(2, reasons.argumentValue(2, replacement));
    if (args.length > 3 && expectLiteral(args, 3, fail) !== 's')
      fail(3, reasons.argumentValue(3, 'the only flag is "s"'));
    return Bytes;
  },
  compile([a, b, c, d]) {
    const source = a!.evaluate;
    const strict = d?.literal === 's';
    const parsed = parseWildcard(b!.literal as string, Number.POSITIVE_INFINITY);
    const replace = compileReplacement(c!.literal as string);
    if (typeof parsed === 'string' || typeof replace === 'string')
      throw new Error('unchecked wildcard_replace');
    const parts = strict ? parsed.parts : parsed.parts.map(asciiLower);
    return (ctx) => {
      const v = source(ctx) as string | undefined;
      if (v === undefined) return undefined;
      const folded = strict ? v : asciiLower(v);
      const captures = wildcardCaptures(parts, folded);
      if (!captures) return v;
      // Lowercasing keeps offsets, so the captures are cut from the original value.
      let pos = 0;
      const groups: string[] = [v];
      for (let i = 0; i < captures.length; i++) {
        const at = i === 0 ? (parts[0] ?? '').length : pos;
        const text = v.slice(at, at + (captures[i] ?? '').length);
        groups.push(text);
        pos = at + text.length + (parts[i + 1] ?? '').length;
      }
      return replace(groups);
    };
  },
};
