// parse(): syntax, then types. Every failure is a RulesParseError with line, column and carets.

import { check } from './checker.ts';
import type { FilterAst } from './compiler.ts';
import { RulesParseError, SpannedError } from './errors.ts';
import { type Limits, resolveLimits } from './limits.ts';
import { parseSyntax } from './parser.ts';
import type { Scheme } from './scheme.ts';

export function parse(source: string, scheme: Scheme, limits?: Partial<Limits>): FilterAst {
  const resolved = resolveLimits(limits);
  try {
    const root = parseSyntax(source, resolved);
    check(root, scheme, resolved);
    return Object.freeze({ root, scheme, source });
  } catch (e) {
    if (e instanceof SpannedError) throw new RulesParseError(source, e.span, e.reason);
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw new RulesParseError(source, { start: 0, end: source.length }, 'expression is nested too deeply');
    }
    throw e;
  }
}
