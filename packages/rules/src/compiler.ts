// The compiler: a checked tree to nested closures (no eval, no new Function). Values compile to
// getters (undefined = missing), boolean positions to tests, and `[*]` to functions returning
// one entry per element.

import type { CallExpr, Expr, IndexExpr, LogicalExpr } from './ast.ts';
import { type Getter, scalarTest, type Test, valueTest } from './compare.ts';
import type { ExecutionContext } from './context.ts';
import { RulesContextError } from './errors.ts';
import type { CompiledArg } from './functions/definition.ts';
import type { Scheme } from './scheme.ts';
import type { Type } from './types.ts';
import { IpAddress } from './values/ip.ts';

/** The result of `parse`: the checked tree, its scheme and its text. */
export interface FilterAst {
  readonly root: Expr;
  readonly scheme: Scheme;
  readonly source: string;
}

export interface Filter {
  readonly ast: FilterAst;
  /** True when the request described by `ctx` matches the expression. */
  execute(ctx: ExecutionContext): boolean;
}

type Each = (ctx: ExecutionContext) => readonly unknown[];
type Vec = (ctx: ExecutionContext) => readonly unknown[] | undefined;

const EMPTY: readonly unknown[] = Object.freeze([]);

function typeOf(e: Expr): Type {
  if (!e.type) throw new TypeError('compile() needs a checked tree: use parse()');
  return e.type;
}

export function compile(ast: FilterAst): Filter {
  const test = new Compiler(ast.scheme).test(ast.root);
  const scheme = ast.scheme;
  return {
    ast,
    execute(ctx) {
      if (ctx.scheme !== scheme) throw new RulesContextError('the context was made for another scheme');
      return test(ctx);
    },
  };
}

class Compiler {
  constructor(private readonly scheme: Scheme) {}

  /** A scalar boolean position. */
  test(e: Expr): Test {
    switch (e.kind) {
      case 'bool': {
        const v = e.value;
        return () => v;
      }
      case 'not': {
        const inner = this.test(e.arg);
        return (ctx) => !inner(ctx);
      }
      case 'logical':
        return this.logical(e);
      case 'compare': {
        const field = e.lhs.kind === 'field' ? this.scheme.field(e.lhs.name)?.index : undefined;
        return scalarTest(e, typeOf(e.lhs), this.value(e.lhs), field);
      }
      case 'field': {
        const index = this.scheme.field(e.name)?.index ?? -1;
        return (ctx) => ctx.read(index) === true;
      }
      default: {
        const get = this.value(e);
        return (ctx) => get(ctx) === true;
      }
    }
  }

  private logical(e: LogicalExpr): Test {
    const items = e.items.map((i) => this.test(i));
    const [a, b, c] = items as [Test, Test, Test | undefined];
    if (e.op === 'xor') {
      return (ctx) => {
        let odd = false;
        for (const t of items) if (t(ctx)) odd = !odd;
        return odd;
      };
    }
    if (e.op === 'and') {
      if (items.length === 2) return (ctx) => a(ctx) && b(ctx);
      if (items.length === 3 && c) return (ctx) => a(ctx) && b(ctx) && c(ctx);
      return (ctx) => {
        for (let i = 0; i < items.length; i++) if (!(items[i] as Test)(ctx)) return false;
        return true;
      };
    }
    if (items.length === 2) return (ctx) => a(ctx) || b(ctx);
    if (items.length === 3 && c) return (ctx) => a(ctx) || b(ctx) || c(ctx);
    return (ctx) => {
      for (let i = 0; i < items.length; i++) if ((items[i] as Test)(ctx)) return true;
      return false;
    };
  }

  /** An Array(Bool) position: one boolean (or missing) per element. */
  vector(e: Expr): Vec {
    if (e.each) return this.each(e);
    switch (e.kind) {
      case 'not': {
        const inner = this.vector(e.arg);
        return (ctx) => (inner(ctx) ?? EMPTY).map((x) => x !== true);
      }
      case 'compare': {
        const rhs = e.rhs;
        const values = this.each(e.lhs);
        if (rhs.kind === 'list_ref') {
          const name = rhs.name;
          return (ctx) => {
            const list = ctx.list(name);
            return values(ctx).map((v) => (v === undefined || list === undefined ? false : list.includes(v)));
          };
        }
        const test = valueTest(e, typeOf(e.lhs));
        return (ctx) => values(ctx).map(test);
      }
      case 'logical': {
        const items = e.items.map((i) => this.vector(i));
        const op = e.op;
        return (ctx) => {
          const arrays = items.map((v) => v(ctx) ?? EMPTY);
          const n = Math.min(...arrays.map((a) => a.length));
          const out = new Array<boolean>(n);
          for (let i = 0; i < n; i++) {
            let acc = op === 'and';
            for (const arr of arrays) {
              const x = arr[i] === true;
              acc = op === 'and' ? acc && x : op === 'or' ? acc || x : acc !== x;
            }
            out[i] = acc;
          }
          return out;
        };
      }
      default: {
        const get = this.value(e);
        return (ctx) => get(ctx) as readonly unknown[] | undefined;
      }
    }
  }

  /** A scalar value (undefined when missing). */
  value(e: Expr): Getter {
    switch (e.kind) {
      case 'field': {
        const def = this.scheme.field(e.name);
        if (!def) throw new TypeError(`unknown field ${e.name}`);
        const index = def.index;
        return (ctx) => ctx.read(index);
      }
      case 'literal': {
        const lit = e.value;
        const v = lit.kind === 'ip' ? IpAddress.parse(lit.address) : lit.value;
        return () => v;
      }
      case 'index':
        return this.index(e);
      case 'call':
        return this.call(e);
      default: {
        if (typeOf(e).kind === 'Array') return this.vector(e);
        return this.test(e);
      }
    }
  }

  private index(e: IndexExpr): Getter {
    const target = this.value(e.target);
    const key = e.key;
    if (key.kind === 'position') {
      const n = key.value;
      return (ctx) => (target(ctx) as readonly unknown[] | undefined)?.[n];
    }
    if (key.kind === 'key') {
      const k = key.value;
      return (ctx) => (target(ctx) as ReadonlyMap<string, unknown> | undefined)?.get(k);
    }
    throw new TypeError('[*] outside an element position');
  }

  /** The elements of a `[*]` value. */
  private each(e: Expr): Each {
    if (e.kind !== 'index') throw new TypeError(`not an element expression: ${e.kind}`);
    const key = e.key;
    if (key.kind === 'each') {
      const target = this.value(e.target);
      return (ctx) => {
        const c = target(ctx) as readonly unknown[] | ReadonlyMap<string, unknown> | undefined;
        if (c === undefined) return EMPTY;
        return Array.isArray(c) ? c : [...(c as ReadonlyMap<string, unknown>).values()];
      };
    }
    const elements = this.each(e.target);
    if (key.kind === 'position') {
      const n = key.value;
      return (ctx) => elements(ctx).map((x) => (x as readonly unknown[] | undefined)?.[n]);
    }
    const k = key.value;
    return (ctx) => elements(ctx).map((x) => (x as ReadonlyMap<string, unknown> | undefined)?.get(k));
  }

  /** any(x[*] op literal) / all(…) as one loop, without building the array of booleans. */
  private fusedPredicate(kind: 'some' | 'every', arg: Expr): Getter | undefined {
    if (arg.kind !== 'compare' || !arg.lhs.each || arg.rhs.kind === 'list_ref') return undefined;
    const elements = this.each(arg.lhs);
    const test = valueTest(arg, typeOf(arg.lhs));
    if (kind === 'some') {
      return (ctx) => {
        const arr = elements(ctx);
        for (let i = 0; i < arr.length; i++) if (test(arr[i])) return true;
        return false;
      };
    }
    return (ctx) => {
      const arr = elements(ctx);
      for (let i = 0; i < arr.length; i++) if (!test(arr[i])) return false;
      return true;
    };
  }

  private call(e: CallExpr): Getter {
    const fn = this.scheme.function(e.name);
    if (!fn) throw new TypeError(`unknown function ${e.name}`);
    const first = e.args[0];
    const literalOf = (arg: Expr) =>
      arg.kind === 'literal'
        ? arg.value.kind === 'ip'
          ? IpAddress.parse(arg.value.address)
          : arg.value.value
        : undefined;
    const rest = e.args
      .slice(1)
      .map((arg): CompiledArg => ({ evaluate: this.value(arg), literal: literalOf(arg) }));
    if (!first) return fn.compile([]);
    if (fn.predicate)
      return (
        this.fusedPredicate(fn.predicate, first) ?? fn.compile([{ evaluate: this.vector(first) }, ...rest])
      );
    if (!first.each) return fn.compile([{ evaluate: this.value(first), literal: literalOf(first) }, ...rest]);
    // `[*]` in the first argument: call once per element and collect the results.
    const cell: { v: unknown } = { v: undefined };
    const inner = fn.compile([{ evaluate: () => cell.v }, ...rest]);
    const elements = this.each(first);
    return (ctx) => {
      const arr = elements(ctx);
      const out = new Array<unknown>(arr.length);
      for (let i = 0; i < arr.length; i++) {
        cell.v = arr[i];
        out[i] = inner(ctx);
      }
      return out;
    };
  }
}
