// Comparison code, specialised per type and operator: one primitive operation on the left value
// with the literal as a constant. Small inline lists become chains of `===` or range checks,
// larger ones a precompiled matcher. Missing values (undefined) make every comparison false
// except `ne`, which is true. Every result is a boolean.

import type { CompareExpr, InlineList, ListItem } from './ast.ts';
import type { Emitter, Scope } from './emit.ts';
import type { Type } from './types.ts';
import { IpAddress } from './values/ip.ts';
import { ipItemRange, listFromItems } from './values/list-matcher.ts';
import { compileRegex } from './values/regex.ts';
import { compileWildcard, parseWildcard } from './values/wildcard.ts';

/** Lists up to this many items are tested inline rather than through a matcher. */
const INLINE_ITEMS = 8;

type Range<T> = readonly [T, T];

export class CompareEmitter {
  constructor(
    private readonly out: Emitter,
    private readonly scope: Scope,
  ) {}

  private k(value: unknown): string {
    return this.out.constant(value);
  }

  /**
   * The test of `e` on the value of `lhs` (code evaluated exactly once). `list` is the code of
   * the named list's matcher for `in $name` (undefined when the caller has no context).
   */
  code(e: CompareExpr, type: Type, lhs: string, list?: string): string {
    const rhs = e.rhs;
    const op = e.op;
    if (rhs.kind === 'list_ref') {
      if (list === undefined) throw new TypeError('named lists need the context');
      const t = this.scope.temp();
      const m = this.scope.temp();
      return `((${t} = ${lhs}) !== undefined && (${m} = ${list}) !== undefined && ${m}.includes(${t}))`;
    }
    if (op === 'in') {
      if (rhs.kind !== 'list') throw new TypeError(`unchecked list ${rhs.kind}`);
      return this.inList(rhs, type, lhs);
    }
    if (rhs.kind === 'ip') return this.ip(op, IpAddress.parse(rhs.address) as IpAddress, lhs);
    if (rhs.kind === 'int') {
      const c = this.k(rhs.value);
      switch (op) {
        case 'eq':
          return `(${lhs} === ${c})`;
        case 'ne':
          return `(${lhs} !== ${c})`;
        case 'lt':
          return `(${lhs} < ${c})`;
        case 'le':
          return `(${lhs} <= ${c})`;
        case 'gt':
          return `(${lhs} > ${c})`;
        case 'ge':
          return `(${lhs} >= ${c})`;
        case 'bitwise_and': {
          const t = this.scope.temp();
          return `((${t} = ${lhs}) !== undefined && h.bitAnd(${t}, ${c}))`;
        }
      }
    }
    if (rhs.kind === 'string') return this.bytes(e, lhs, rhs.value);
    throw new TypeError(`unchecked comparison ${op} ${rhs.kind}`);
  }

  private bytes(e: CompareExpr, lhs: string, lit: string): string {
    const c = this.k(lit);
    if (e.op === 'eq') return `(${lhs} === ${c})`;
    if (e.op === 'ne') return `(${lhs} !== ${c})`;
    const t = this.scope.temp();
    const defined = `(${t} = ${lhs}) !== undefined`;
    switch (e.op) {
      case 'lt':
        return `(${defined} && ${t} < ${c})`;
      case 'le':
        return `(${defined} && ${t} <= ${c})`;
      case 'gt':
        return `(${defined} && ${t} > ${c})`;
      case 'ge':
        return `(${defined} && ${t} >= ${c})`;
      case 'contains':
        return `(${defined} && ${t}.includes(${c}))`;
      case 'matches': {
        const re = this.k(compileRegex(lit, Number.POSITIVE_INFINITY).regexp);
        return `(${defined} && ${re}.test(${t}))`;
      }
      case 'wildcard':
      case 'strict_wildcard': {
        const parsed = parseWildcard(lit, Number.POSITIVE_INFINITY);
        if (typeof parsed === 'string') throw new TypeError(parsed);
        const match = this.k(compileWildcard(parsed, e.op === 'strict_wildcard'));
        return `(${defined} && ${match}(${t}))`;
      }
      default:
        throw new TypeError(`unchecked comparison ${e.op} on Bytes`);
    }
  }

  private ip(op: CompareExpr['op'], lit: IpAddress, lhs: string): string {
    const t = this.scope.temp();
    const defined = `(${t} = ${lhs}) !== undefined`;
    const c = this.k(lit);
    switch (op) {
      case 'eq':
        return lit.version === 4
          ? `(${defined} && ${t}.version === 4 && ${t}.v4 === ${this.k(lit.v4)})`
          : `(${defined} && ${t}.equals(${c}))`;
      case 'ne':
        return `((${t} = ${lhs}) === undefined || !${t}.equals(${c}))`;
      case 'lt':
        return `(${defined} && ${t}.compare(${c}) < 0)`;
      case 'le':
        return `(${defined} && ${t}.compare(${c}) <= 0)`;
      case 'gt':
        return `(${defined} && ${t}.compare(${c}) > 0)`;
      case 'ge':
        return `(${defined} && ${t}.compare(${c}) >= 0)`;
      default:
        throw new TypeError(`unchecked comparison ${op} on Ip`);
    }
  }

  private inList(list: InlineList, type: Type, lhs: string): string {
    const items = list.items;
    const t = this.scope.temp();
    if (items.length === 0) return `((${t} = ${lhs}), false)`;
    if (items.length > INLINE_ITEMS) {
      const matcher = this.k(listFromItems(type, items));
      return `((${t} = ${lhs}) !== undefined && ${matcher}.includes(${t}))`;
    }
    switch (type.kind) {
      case 'Bytes': {
        const values = [...new Set(items.map((i) => (i.kind === 'string' ? i.value : '')))];
        return `((${t} = ${lhs}) === ${values.map((v, i) => (i === 0 ? this.k(v) : `${t} === ${this.k(v)}`)).join(' || ')})`;
      }
      case 'Int': {
        const ranges = items.map(
          (i): Range<number> =>
            i.kind === 'int' ? [i.value, i.value] : i.kind === 'int_range' ? [i.from, i.to] : [1, 0],
        );
        return `((${t} = ${lhs}), ${this.ranges(t, ranges)})`;
      }
      case 'Ip':
        return this.ipList(items, lhs, t);
      default:
        throw new TypeError(`no list of type ${type.kind}`);
    }
  }

  /** `x === a || x >= b && x <= c …` over constants (numbers or bigints). */
  private ranges<T>(x: string, ranges: readonly Range<T>[]): string {
    if (ranges.length === 0) return 'false';
    const tests = ranges.map(([from, to]) =>
      from === to ? `${x} === ${this.k(from)}` : `${x} >= ${this.k(from)} && ${x} <= ${this.k(to)}`,
    );
    return `(${tests.join(' || ')})`;
  }

  private ipList(items: readonly ListItem[], lhs: string, t: string): string {
    const v4: Range<number>[] = [];
    const v6: Range<bigint>[] = [];
    for (const item of items) {
      const [from, to] = ipItemRange(item);
      if (from.version === 4) v4.push([from.v4, to.v4]);
      else v6.push([from.v6, to.v6]);
    }
    const x = this.scope.temp();
    const four = v4.length === 0 ? 'false' : `(${x} = ${t}.v4, ${this.ranges(x, v4)})`;
    const six = v6.length === 0 ? 'false' : `(${x} = ${t}.v6, ${this.ranges(x, v6)})`;
    return `((${t} = ${lhs}) !== undefined && (${t}.version === 4 ? ${four} : ${six}))`;
  }
}
