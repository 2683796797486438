// The syntax tree. The parser builds it without the scheme; the checker fills in `type` on every
// expression node (and `each` for values unpacked by `[*]`). Every node keeps its span.

import type { Span } from './errors.ts';
import type { Type } from './types.ts';

/** Comparison operators, by their English names (`strict_wildcard` prints as `strict wildcard`). */
export type CompareOp =
  | 'eq'
  | 'ne'
  | 'lt'
  | 'le'
  | 'gt'
  | 'ge'
  | 'contains'
  | 'matches'
  | 'wildcard'
  | 'strict_wildcard'
  | 'in'
  | 'bitwise_and';

export type LogicalOp = 'and' | 'xor' | 'or';

/** A string literal: `value` holds bytes (one char per byte); `raw` is the `#` count of `r#"…"#`, or -1 when quoted. */
export interface StringLiteral {
  readonly kind: 'string';
  readonly value: string;
  readonly raw: number;
  readonly span: Span;
}

export interface IntLiteral {
  readonly kind: 'int';
  readonly value: number;
  readonly span: Span;
}

/** An IP address in canonical text (`192.0.2.1`, `2001:db8::1`). */
export interface IpLiteral {
  readonly kind: 'ip';
  readonly address: string;
  readonly span: Span;
}

export interface IntRangeLiteral {
  readonly kind: 'int_range';
  readonly from: number;
  readonly to: number;
  readonly span: Span;
}

export interface IpRangeLiteral {
  readonly kind: 'ip_range';
  readonly from: string;
  readonly to: string;
  readonly span: Span;
}

/** `192.0.2.0/24`; `address` is kept as written (canonicalised), host bits may be set. */
export interface CidrLiteral {
  readonly kind: 'cidr';
  readonly address: string;
  readonly bits: number;
  readonly span: Span;
}

export type ScalarLiteral = StringLiteral | IntLiteral | IpLiteral;
export type ListItem = ScalarLiteral | IntRangeLiteral | IpRangeLiteral | CidrLiteral;

export interface InlineList {
  readonly kind: 'list';
  readonly items: readonly ListItem[];
  readonly span: Span;
}

/** `$office_network` */
export interface ListRef {
  readonly kind: 'list_ref';
  readonly name: string;
  readonly span: Span;
}

export type Rhs = ListItem | InlineList | ListRef;

interface Typed {
  /** Set by the checker. For `each` values this is the element type. */
  type?: Type;
  /** Set by the checker: the value is unpacked by `[*]` (evaluated once per element). */
  each?: boolean;
}

export interface FieldExpr extends Typed {
  readonly kind: 'field';
  readonly name: string;
  readonly span: Span;
}

export interface CallExpr extends Typed {
  readonly kind: 'call';
  readonly name: string;
  readonly args: readonly Expr[];
  readonly span: Span;
  readonly nameSpan: Span;
}

export type IndexKey =
  | { readonly kind: 'key'; readonly value: string; readonly raw: number }
  | { readonly kind: 'position'; readonly value: number }
  | { readonly kind: 'each' };

export interface IndexExpr extends Typed {
  readonly kind: 'index';
  readonly target: ValueExpr;
  readonly key: IndexKey;
  readonly span: Span;
  readonly keySpan: Span;
}

/** A literal used as a function argument, e.g. `starts_with(http.host, "www.")`. */
export interface LiteralExpr extends Typed {
  readonly kind: 'literal';
  readonly value: ScalarLiteral;
  readonly span: Span;
}

export type ValueExpr = FieldExpr | CallExpr | IndexExpr | LiteralExpr;

export interface CompareExpr extends Typed {
  readonly kind: 'compare';
  readonly op: CompareOp;
  readonly lhs: ValueExpr;
  readonly rhs: Rhs;
  readonly span: Span;
  readonly opSpan: Span;
}

export interface NotExpr extends Typed {
  readonly kind: 'not';
  readonly arg: Expr;
  readonly span: Span;
}

/** `a and b and c` is one node with three items; parentheses that group the same operator nest. */
export interface LogicalExpr extends Typed {
  readonly kind: 'logical';
  readonly op: LogicalOp;
  readonly items: readonly Expr[];
  readonly span: Span;
}

/** `true` / `false` — e.g. the expression `true` of an execute rule that matches all traffic. */
export interface BoolExpr extends Typed {
  readonly kind: 'bool';
  readonly value: boolean;
  readonly span: Span;
}

export type Expr = ValueExpr | CompareExpr | NotExpr | LogicalExpr | BoolExpr;
