// What a function is: `{ name, params (min/max), check(argTypes) → return type, compile(args) }`.

import type { ExecutionContext } from '../context.ts';
import type { Type } from '../types.ts';
import type { IpAddress } from '../values/ip.ts';

/** A literal argument's value: bytes (binary string), integer, or IP address. */
export type LiteralValue = string | number | IpAddress;

export interface ArgInfo {
  /** The argument's type; for the `[*]`-unpacked first argument, the element type. */
  readonly type: Type;
  /** `literal` for a written value (`"abc"`, `24`), `field` for anything computed. */
  readonly kind: 'field' | 'literal';
  readonly literal?: LiteralValue;
}

export type Evaluator = (ctx: ExecutionContext) => unknown;

export interface CompiledArg {
  readonly evaluate: Evaluator;
  /** Set for literal arguments, so a function can precompute (a regex, a set of bytes). */
  readonly literal?: LiteralValue;
}

/** Fails the check with a reason about argument `index` (0-based, as in wirefilter). */
export type ArgFail = (index: number, reason: string) => never;

export interface FunctionDef {
  readonly name: string;
  /** One line: signature and what it returns. */
  readonly summary: string;
  readonly minArgs: number;
  readonly maxArgs: number;
  /** `any`/`all`: the first argument is a boolean expression over `[*]` (Array(Bool)); the
   * compiler may fuse the loop (`some`: true when one element is, `every`: when all are). */
  readonly predicate?: 'some' | 'every';
  /** `regex_replace`/`wildcard_replace`: at most one of them per expression. */
  readonly oncePerExpression?: boolean;
  /** Only meaningful in rewrite expressions (Transform Rules, redirects), not in filters. */
  readonly rewriteOnly?: boolean;
  /** Returns the result type, or calls `fail`. */
  check(args: readonly ArgInfo[], fail: ArgFail): Type;
  /** Returns the evaluator; missing inputs give a missing (undefined) result. */
  compile(args: readonly CompiledArg[]): Evaluator;
}
