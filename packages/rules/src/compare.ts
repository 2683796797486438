// Comparison closures, specialised per type and operator with the literal precompiled, so the
// hot path is one field read and one primitive operation. Missing values (undefined) make every
// comparison false except `ne`, which is true.

import type { CompareExpr, ListItem } from './ast.ts';
import type { ExecutionContext } from './context.ts';
import type { Type } from './types.ts';
import { IpAddress } from './values/ip.ts';
import { listFromItems } from './values/list-matcher.ts';
import { compileRegex } from './values/regex.ts';
import { compileWildcard, parseWildcard } from './values/wildcard.ts';

export type Getter = (ctx: ExecutionContext) => unknown;
export type Test = (ctx: ExecutionContext) => boolean;
/** A test on one value (used per element under `[*]`). */
export type ValueTest = (v: unknown) => boolean;

function bitAnd(a: number, b: number): boolean {
  if (a >= -0x80000000 && a <= 0x7fffffff && b >= -0x80000000 && b <= 0x7fffffff) return (a & b) !== 0;
  return (BigInt(a) & BigInt(b)) !== 0n;
}

/** The per-value test for a comparison whose right-hand side is a literal or inline list. */
export function valueTest(e: CompareExpr, type: Type): ValueTest {
  const rhs = e.rhs;
  if (e.op === 'in') {
    if (rhs.kind !== 'list') throw new TypeError('named lists need the context');
    const list = listFromItems(type, rhs.items as readonly ListItem[]);
    return (v) => v !== undefined && list.includes(v);
  }
  if (rhs.kind === 'ip') {
    const lit = IpAddress.parse(rhs.address) as IpAddress;
    const cmp = (v: unknown) => (v === undefined ? undefined : (v as IpAddress).compare(lit));
    switch (e.op) {
      case 'eq':
        return lit.version === 4
          ? (v) => v !== undefined && (v as IpAddress).version === 4 && (v as IpAddress).v4 === lit.v4
          : (v) => v !== undefined && (v as IpAddress).equals(lit);
      case 'ne':
        return (v) => v === undefined || !(v as IpAddress).equals(lit);
      case 'lt':
        return (v) => (cmp(v) ?? 0) < 0;
      case 'le':
        return (v) => {
          const c = cmp(v);
          return c !== undefined && c <= 0;
        };
      case 'gt':
        return (v) => (cmp(v) ?? 0) > 0;
      case 'ge':
        return (v) => {
          const c = cmp(v);
          return c !== undefined && c >= 0;
        };
    }
  }
  if (rhs.kind === 'int') {
    const lit = rhs.value;
    switch (e.op) {
      case 'eq':
        return (v) => v === lit;
      case 'ne':
        return (v) => v !== lit;
      case 'lt':
        return (v) => (v as number) < lit;
      case 'le':
        return (v) => (v as number) <= lit;
      case 'gt':
        return (v) => (v as number) > lit;
      case 'ge':
        return (v) => (v as number) >= lit;
      case 'bitwise_and':
        return (v) => v !== undefined && bitAnd(v as number, lit);
    }
  }
  if (rhs.kind === 'string') {
    const lit = rhs.value;
    switch (e.op) {
      case 'eq':
        return (v) => v === lit;
      case 'ne':
        return (v) => v !== lit;
      case 'lt':
        return (v) => v !== undefined && (v as string) < lit;
      case 'le':
        return (v) => v !== undefined && (v as string) <= lit;
      case 'gt':
        return (v) => v !== undefined && (v as string) > lit;
      case 'ge':
        return (v) => v !== undefined && (v as string) >= lit;
      case 'contains':
        return (v) => v !== undefined && (v as string).includes(lit);
      case 'matches': {
        const re = compileRegex(lit, Number.POSITIVE_INFINITY).regexp;
        return (v) => v !== undefined && re.test(v as string);
      }
      case 'wildcard':
      case 'strict_wildcard': {
        const parsed = parseWildcard(lit, Number.POSITIVE_INFINITY);
        if (typeof parsed === 'string') throw new TypeError(parsed);
        const match = compileWildcard(parsed, e.op === 'strict_wildcard');
        return (v) => v !== undefined && match(v as string);
      }
    }
  }
  throw new TypeError(`unchecked comparison ${e.op} ${rhs.kind}`);
}

/** Field on the left: read the context slot directly, no getter call. */
function fieldTest(e: CompareExpr, i: number): Test | undefined {
  const rhs = e.rhs;
  if (rhs.kind !== 'string' && rhs.kind !== 'int') return undefined;
  const lit = rhs.value;
  const n = lit as number;
  switch (e.op) {
    case 'eq':
      return (ctx) => ctx.read(i) === lit;
    case 'ne':
      return (ctx) => ctx.read(i) !== lit;
    case 'lt':
      return (ctx) => (ctx.read(i) as number) < n;
    case 'le':
      return (ctx) => (ctx.read(i) as number) <= n;
    case 'gt':
      return (ctx) => (ctx.read(i) as number) > n;
    case 'ge':
      return (ctx) => (ctx.read(i) as number) >= n;
    case 'contains': {
      const s = lit as string;
      return (ctx) => {
        const v = ctx.read(i);
        return typeof v === 'string' && v.includes(s);
      };
    }
    default:
      return undefined;
  }
}

/** The scalar test: the getter and the comparison fused into one closure for the common cases. */
export function scalarTest(e: CompareExpr, type: Type, get: Getter, fieldIndex?: number): Test {
  const rhs = e.rhs;
  if (
    fieldIndex !== undefined &&
    (rhs.kind === 'int' || e.op === 'eq' || e.op === 'ne' || e.op === 'contains')
  ) {
    const direct = fieldTest(e, fieldIndex);
    if (direct) return direct;
  }
  if (fieldIndex !== undefined && e.op === 'in' && rhs.kind === 'list') {
    const singles = rhs.items.every((item) => item.kind === 'string' || item.kind === 'int');
    if (singles && rhs.items.length <= 8) {
      const items = rhs.items.map((item) =>
        item.kind === 'string' || item.kind === 'int' ? item.value : undefined,
      );
      return (ctx) => {
        const v = ctx.read(fieldIndex);
        for (let k = 0; k < items.length; k++) if (items[k] === v) return true;
        return false;
      };
    }
    const test = valueTest(e, type);
    return (ctx) => test(ctx.read(fieldIndex));
  }
  if (rhs.kind === 'list_ref') {
    const name = rhs.name;
    return (ctx) => {
      const v = get(ctx);
      const list = ctx.list(name);
      return v === undefined || list === undefined ? false : list.includes(v);
    };
  }
  if (rhs.kind === 'string' || rhs.kind === 'int') {
    const lit = rhs.value;
    switch (e.op) {
      case 'eq':
        return (ctx) => get(ctx) === lit;
      case 'ne':
        return (ctx) => get(ctx) !== lit;
    }
  }
  if (rhs.kind === 'string') {
    const lit = rhs.value;
    if (e.op === 'contains') {
      return (ctx) => {
        const v = get(ctx) as string | undefined;
        return typeof v === 'string' && v.includes(lit);
      };
    }
  }
  if (rhs.kind === 'int') {
    const lit = rhs.value;
    switch (e.op) {
      case 'lt':
        return (ctx) => (get(ctx) as number) < lit;
      case 'le':
        return (ctx) => (get(ctx) as number) <= lit;
      case 'gt':
        return (ctx) => (get(ctx) as number) > lit;
      case 'ge':
        return (ctx) => (get(ctx) as number) >= lit;
    }
  }
  const test = valueTest(e, type);
  return (ctx) => test(get(ctx));
}
