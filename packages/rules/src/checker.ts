// The type checker: resolves names against the scheme, gives every expression node its type,
// and refuses what cannot run — unknown names, operators a type does not have, literals of the
// wrong type, bad function calls, misplaced `[*]`, invalid regexes and wildcards.

import type { CallExpr, CompareExpr, CompareOp, Expr, IndexExpr, ListItem, LogicalExpr, Rhs } from './ast.ts';
import { fail, reasons } from './errors.ts';
import type { ArgInfo } from './functions/definition.ts';
import type { Limits } from './limits.ts';
import { print } from './printer.ts';
import type { Scheme } from './scheme.ts';
import { arrayOf, Bool, Bytes, Int, Ip, sameType, type Type, typeName } from './types.ts';
import { IpAddress } from './values/ip.ts';
import { compileRegex, RegexError } from './values/regex.ts';
import { parseWildcard } from './values/wildcard.ts';

interface Info {
  readonly type: Type;
  /** Unpacked by `[*]`: `type` is the element type. */
  readonly each: boolean;
  /** For `[*]`-derived values: the canonical text of the array they unpack. */
  readonly source?: string;
}

const BYTES_OPS: ReadonlySet<CompareOp> = new Set([
  'eq',
  'ne',
  'lt',
  'le',
  'gt',
  'ge',
  'contains',
  'matches',
  'wildcard',
  'strict_wildcard',
  'in',
]);
const INT_OPS: ReadonlySet<CompareOp> = new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'in', 'bitwise_and']);
const IP_OPS: ReadonlySet<CompareOp> = new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'in']);

function describe(rhs: Rhs): string {
  switch (rhs.kind) {
    case 'string':
      return 'Bytes';
    case 'int':
      return 'Int';
    case 'ip':
      return 'Ip';
    case 'int_range':
      return 'Int range';
    case 'ip_range':
      return 'Ip range';
    case 'cidr':
      return 'Ip network (use `in {…}` for networks)';
    case 'list':
    case 'list_ref':
      return 'a list (lists need the `in` operator)';
  }
}

function literalType(kind: 'string' | 'int' | 'ip'): Type {
  return kind === 'string' ? Bytes : kind === 'int' ? Int : Ip;
}

/** Checks `root` against `scheme`, annotating every expression node with its type. */
export function check(root: Expr, scheme: Scheme, limits: Limits): void {
  const info = new Checker(scheme, limits).bool(root);
  if (info.type.kind !== 'Bool') fail(root.span, reasons.typeMismatch('Bool', typeName(info.type)));
}

class Checker {
  private replaceUsed = false;

  constructor(
    private readonly scheme: Scheme,
    private readonly limits: Limits,
  ) {}

  private annotate(e: Expr, info: Info): Info {
    e.type = info.type;
    e.each = info.each;
    return info;
  }

  /** An expression in a boolean position: Bool, or Array(Bool) inside any()/all(). */
  bool(e: Expr): Info {
    const info = this.value(e);
    if (info.each) {
      if (info.type.kind !== 'Bool') fail(e.span, reasons.typeMismatch('Bool', typeName(info.type)));
      return { type: arrayOf(Bool), each: false, source: info.source };
    }
    const t = info.type;
    if (t.kind === 'Bool' || (t.kind === 'Array' && t.of.kind === 'Bool')) return info;
    return fail(e.span, reasons.typeMismatch('Bool', typeName(t)));
  }

  value(e: Expr): Info {
    switch (e.kind) {
      case 'field': {
        const def = this.scheme.field(e.name);
        if (!def) fail(e.span, reasons.unknownIdentifier);
        return this.annotate(e, { type: def.type, each: false });
      }
      case 'literal':
        return this.annotate(e, { type: literalType(e.value.kind), each: false });
      case 'bool':
        return this.annotate(e, { type: Bool, each: false });
      case 'index':
        return this.annotate(e, this.index(e));
      case 'call':
        return this.annotate(e, this.call(e));
      case 'compare': {
        const lhs = this.compare(e);
        const info = lhs.each
          ? { type: arrayOf(Bool), each: false, source: lhs.source }
          : { type: Bool, each: false };
        return this.annotate(e, info);
      }
      case 'not':
        return this.annotate(e, this.bool(e.arg));
      case 'logical':
        return this.annotate(e, this.logical(e));
    }
  }

  private index(e: IndexExpr): Info {
    const target = this.value(e.target);
    const t = target.type;
    const key = e.key;
    if (key.kind === 'each') {
      if (target.each) fail(e.keySpan, reasons.mapEach);
      if (t.kind !== 'Array' && t.kind !== 'Map')
        fail(e.keySpan, `cannot unpack a value of type ${typeName(t)} with [*]`);
      return { type: t.of, each: true, source: target.source ?? print(e.target) };
    }
    if (key.kind === 'position' && t.kind !== 'Array') {
      fail(
        e.keySpan,
        t.kind === 'Map'
          ? `expected a string key for type ${typeName(t)}`
          : `cannot index a value of type ${typeName(t)}`,
      );
    }
    if (key.kind === 'key' && t.kind !== 'Map') {
      fail(
        e.keySpan,
        t.kind === 'Array'
          ? `expected an integer index for type ${typeName(t)}`
          : `cannot index a value of type ${typeName(t)}`,
      );
    }
    if (t.kind !== 'Array' && t.kind !== 'Map')
      return fail(e.keySpan, `cannot index a value of type ${typeName(t)}`);
    return { type: t.of, each: target.each, source: target.source };
  }

  private call(e: CallExpr): Info {
    const fn = this.scheme.function(e.name);
    if (!fn) fail(e.nameSpan, reasons.unknownIdentifier);
    if (e.args.length < fn.minArgs || e.args.length > fn.maxArgs) fail(e.span, reasons.invalidArgumentCount);
    if (fn.oncePerExpression) {
      if (this.replaceUsed)
        fail(e.nameSpan, 'only one regex_replace() or wildcard_replace() is allowed per expression');
      this.replaceUsed = true;
    }
    let mapped: Info | undefined;
    const args: ArgInfo[] = e.args.map((arg, i) => {
      if (fn.predicate && i === 0) {
        const info = this.bool(arg);
        if (info.type.kind !== 'Array')
          fail(arg.span, reasons.argumentType(0, 'Array(Bool)', typeName(info.type)));
        mapped = undefined;
        return { type: info.type, kind: 'field' };
      }
      const info = this.value(arg);
      if (info.each) {
        if (i > 0) fail(arg.span, reasons.mapEach);
        mapped = info;
      }
      if (arg.kind !== 'literal') return { type: info.type, kind: 'field' };
      const v = arg.value;
      const literal = v.kind === 'ip' ? (IpAddress.parse(v.address) as IpAddress) : v.value;
      return { type: info.type, kind: 'literal', literal };
    });
    const returns = fn.check(args, (i, reason) => fail(e.args[i]?.span ?? e.span, reason));
    if (mapped) return { type: arrayOf(returns), each: false, source: mapped.source };
    return { type: returns, each: false };
  }

  private compare(e: CompareExpr): Info {
    const lhs = this.value(e.lhs);
    const t = lhs.type;
    const ops =
      t.kind === 'Bytes' ? BYTES_OPS : t.kind === 'Int' ? INT_OPS : t.kind === 'Ip' ? IP_OPS : undefined;
    if (!ops?.has(e.op)) fail(e.opSpan, reasons.unsupportedOp(typeName(t)));
    const rhs = e.rhs;
    if (e.op === 'in') {
      if (rhs.kind === 'list') {
        for (const item of rhs.items) this.listItem(item, t);
      } else if (rhs.kind === 'list_ref') {
        const list = this.scheme.list(rhs.name);
        if (!list) fail(rhs.span, reasons.unknownList);
        if (!sameType(list.type, t)) fail(rhs.span, reasons.typeMismatch(typeName(t), typeName(list.type)));
      } else {
        fail(rhs.span, reasons.expected('a list: {…} or $name'));
      }
      return lhs;
    }
    const expected = t.kind === 'Bytes' ? 'string' : t.kind === 'Int' ? 'int' : 'ip';
    if (rhs.kind !== expected) fail(rhs.span, reasons.typeMismatch(typeName(t), describe(rhs)));
    if (rhs.kind === 'string' && e.op === 'matches') {
      try {
        compileRegex(rhs.value, this.limits.maxRegexLength);
      } catch (err) {
        if (err instanceof RegexError) fail(rhs.span, err.message);
        throw err;
      }
    }
    if (rhs.kind === 'string' && (e.op === 'wildcard' || e.op === 'strict_wildcard')) {
      const parsed = parseWildcard(rhs.value, this.limits.wildcardStarLimit);
      if (typeof parsed === 'string') fail(rhs.span, parsed);
    }
    return lhs;
  }

  private listItem(item: ListItem, t: Type): void {
    const ok =
      t.kind === 'Bytes'
        ? item.kind === 'string'
        : t.kind === 'Int'
          ? item.kind === 'int' || item.kind === 'int_range'
          : item.kind === 'ip' || item.kind === 'ip_range' || item.kind === 'cidr';
    if (!ok) {
      const got = item.kind === 'cidr' ? 'Ip network' : describe(item);
      fail(item.span, reasons.typeMismatch(typeName(t), got));
    }
  }

  private logical(e: LogicalExpr): Info {
    const infos = e.items.map((item) => this.bool(item));
    const first = infos[0] as Info;
    for (let i = 1; i < infos.length; i++) {
      const info = infos[i] as Info;
      const span = e.items[i]?.span ?? e.span;
      if (info.type.kind !== first.type.kind)
        fail(span, reasons.typeMismatch(typeName(first.type), typeName(info.type)));
      if (info.source !== first.source) fail(span, '[*] can only be combined with [*] over the same array');
    }
    return first;
  }
}
