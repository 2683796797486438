// @cairn/rules — the Rules language (wirefilter syntax): scheme → parse → compile → execute.

export type {
  CallExpr,
  CompareExpr,
  CompareOp,
  Expr,
  FieldExpr,
  IndexExpr,
  ListItem,
  LiteralExpr,
  LogicalExpr,
  LogicalOp,
  NotExpr,
  Rhs,
  ValueExpr,
} from './ast.ts';
export { compile, type Filter, type FilterAst } from './compiler.ts';
export { type ContextOptions, ExecutionContext, type FieldGetter, type FieldResolver } from './context.ts';
export {
  formatParseError,
  RulesContextError,
  RulesParseError,
  RulesSchemeError,
  type Span,
} from './errors.ts';
export type {
  ArgFail,
  ArgInfo,
  CompiledArg,
  Evaluator,
  FunctionDef,
  LiteralValue,
} from './functions/definition.ts';
export { filterFunctions, standardFunctions } from './functions/index.ts';
export { type HttpSchemeOptions, httpRequestFields, httpRequestScheme } from './http/fields.ts';
export { createRequestContext, type GeoInput, type HttpRequestInput } from './http/request-context.ts';
export {
  normalizeRequestTarget,
  normalizeUrlPath,
  type UrlNormalizationType,
} from './http/url-normalization.ts';
export { defaultLimits, type Limits } from './limits.ts';
export { createList } from './lists.ts';
export { parse } from './parse.ts';
export { print } from './printer.ts';
export { type FieldDef, type ListDef, Scheme, type SchemeInit } from './scheme.ts';
export { arrayOf, Bool, Bytes, Int, Ip, mapOf, parseTypeName, type Type, typeName } from './types.ts';
export { bytesToUtf8, utf8ToBytes } from './values/bytes.ts';
export { IpAddress } from './values/ip.ts';
export type { ListMatcher } from './values/list-matcher.ts';

import type { FilterAst } from './compiler.ts';
import { print as printExpr } from './printer.ts';

/** Canonical text of a parsed expression (same as `print(ast.root)`). */
export function printFilter(ast: FilterAst): string {
  return printExpr(ast.root);
}
