// The compiler: a checked tree to one JavaScript function per filter, so V8 sees monomorphic
// call sites and inlines the whole expression. The source is built from this package's fixed
// fragments and integer counters only (see emit.ts): literals, regexes, list matchers, map keys
// and functions are constants referenced by index, and fields are context slots by index.
// Boolean positions compile to tests (always a boolean), values to expressions that are
// undefined when missing, `[*]` to arrays with one entry per element.

import type { CallExpr, CompareExpr, Expr, IndexExpr, LogicalExpr } from './ast.ts';
import { CompareEmitter } from './compare.ts';
import type { ExecutionContext } from './context.ts';
import { Emitter, type Scope } from './emit.ts';
import { all } from './functions/all.ts';
import { any } from './functions/any.ts';
import type { LiteralValue } from './functions/definition.ts';
import { endsWith } from './functions/ends-with.ts';
import { len } from './functions/len.ts';
import { lower } from './functions/lower.ts';
import { startsWith } from './functions/starts-with.ts';
import { upper } from './functions/upper.ts';
import { print } from './printer.ts';
import { binder, elementBinder, NOT_COMPUTED, runtime } from './runtime.ts';
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

/** The generated factory source and the constants it reads (exposed for tests). */
export interface Generated {
  readonly source: string;
  readonly constants: readonly unknown[];
}

type Execute = (ctx: ExecutionContext) => boolean;
type Factory = (k: readonly unknown[], h: typeof runtime, nc: typeof NOT_COMPUTED) => Execute;

function typeOf(e: Expr): Type {
  if (!e.type) throw new TypeError('compile() needs a checked tree: use parse()');
  return e.type;
}

function literalOf(e: Expr): LiteralValue | undefined {
  if (e.kind !== 'literal') return undefined;
  return e.value.kind === 'ip' ? (IpAddress.parse(e.value.address) as IpAddress) : e.value.value;
}

/** Generates the filter's source without evaluating it. */
export function generate(ast: FilterAst): Generated {
  const out = new Emitter();
  const scope = out.scope();
  const body = new CodeGen(ast.scheme, out, scope).test(ast.root);
  const scheme = out.constant(ast.scheme);
  const fn =
    `function execute(ctx) {\n  if (ctx.scheme !== ${scheme}) return h.wrongScheme();\n` +
    `  ${scope.declarations()}\n  return ${body};\n}`;
  return { source: out.source(fn), constants: out.constants };
}

export function compile(ast: FilterAst): Filter {
  const { source, constants } = generate(ast);
  // Safe: `source` holds only fixed fragments and numbers (checked by Emitter.source).
  const factory = new Function('k', 'h', 'NC', source) as Factory;
  return { ast, execute: factory(constants, runtime, NOT_COMPUTED) };
}

class CodeGen {
  constructor(
    private readonly scheme: Scheme,
    private readonly out: Emitter,
    private readonly scope: Scope,
  ) {}

  private k(value: unknown): string {
    return this.out.constant(value);
  }

  /** A generator for an arrow function of its own (element predicates, function arguments). */
  private nested(params: string, body: (gen: CodeGen) => string): string {
    return this.out.arrow(params, (scope) => body(new CodeGen(this.scheme, this.out, scope)));
  }

  /** The field's slot, computed on first use (`ExecutionContext.read` inlined by hand). */
  private field(name: string): string {
    const def = this.scheme.field(name);
    if (!def) throw new TypeError(`unknown field ${name}`);
    const t = this.scope.temp();
    return `((${t} = ctx.values[${def.index}]) !== NC ? ${t} : ctx.compute(${def.index}))`;
  }

  /** A scalar boolean position. */
  test(e: Expr): string {
    switch (e.kind) {
      case 'bool':
        return e.value ? 'true' : 'false';
      case 'not':
        return `!${this.test(e.arg)}`;
      case 'logical':
        return this.logical(e);
      case 'compare':
        return this.compare(e);
      case 'call':
        return this.affix(e) ?? `(${this.value(e)} === true)`;
      default:
        return `(${this.value(e)} === true)`;
    }
  }

  private logical(e: LogicalExpr): string {
    const items = e.items.map((i) => this.test(i));
    const op = e.op === 'and' ? ' && ' : e.op === 'or' ? ' || ' : ' !== ';
    return `(${items.join(op)})`;
  }

  private compare(e: CompareExpr): string {
    const list = e.rhs.kind === 'list_ref' ? `ctx.list(${this.k(e.rhs.name)})` : undefined;
    return new CompareEmitter(this.out, this.scope).code(e, typeOf(e.lhs), this.value(e.lhs), list);
  }

  /**
   * starts_with/ends_with: in a boolean position (`test`) a plain boolean, else the function's
   * value (undefined when an input is missing).
   */
  private affix(e: CallExpr, test = true): string | undefined {
    const fn = this.scheme.function(e.name);
    const [source, affix] = e.args;
    if ((fn !== startsWith && fn !== endsWith) || !source || !affix || source.each) return undefined;
    const method = fn === startsWith ? 'startsWith' : 'endsWith';
    const s = this.scope.temp();
    const a = affix.kind === 'literal' ? this.value(affix) : this.scope.temp();
    const defined =
      affix.kind === 'literal'
        ? `(${s} = ${this.value(source)}) !== undefined`
        : `(${s} = ${this.value(source)}) !== undefined && (${a} = ${this.value(affix)}) !== undefined`;
    return test ? `(${defined} && ${s}.${method}(${a}))` : `(${defined} ? ${s}.${method}(${a}) : undefined)`;
  }

  /** A scalar value (undefined when missing). */
  value(e: Expr): string {
    switch (e.kind) {
      case 'field':
        return this.field(e.name);
      case 'literal':
        return this.k(literalOf(e));
      case 'index':
        return this.index(e);
      case 'call':
        return this.call(e);
      default:
        return typeOf(e).kind === 'Array' ? this.vector(e) : this.test(e);
    }
  }

  private index(e: IndexExpr): string {
    const key = e.key;
    if (key.kind === 'position') return `${this.value(e.target)}?.[${this.k(key.value)}]`;
    if (key.kind === 'key') return `${this.value(e.target)}?.get(${this.k(key.value)})`;
    throw new TypeError('[*] outside an element position');
  }

  /** The elements of a `[*]` value: always an array. */
  private each(e: Expr): string {
    if (e.kind !== 'index') throw new TypeError(`not an element expression: ${e.kind}`);
    const key = e.key;
    if (key.kind === 'each') return `h.elements(${this.value(e.target)})`;
    if (key.kind === 'position') return `h.atPosition(${this.each(e.target)}, ${this.k(key.value)})`;
    return `h.atKey(${this.each(e.target)}, ${this.k(key.value)})`;
  }

  /** An Array(Bool) position: one boolean (or missing) per element; the array may be missing. */
  private vector(e: Expr): string {
    if (e.each) return this.each(e);
    switch (e.kind) {
      case 'not':
        return `h.notEach(${this.vector(e.arg)})`;
      case 'compare': {
        const elements = this.each(e.lhs);
        if (e.rhs.kind === 'list_ref') return `h.inListEach(${elements}, ctx.list(${this.k(e.rhs.name)}))`;
        return `${elements}.map(${this.predicate(e)})`;
      }
      case 'logical': {
        const items = e.items.map((i) => this.vector(i));
        return `h.${e.op}Each([${items.join(', ')}])`;
      }
      default:
        return this.value(e);
    }
  }

  /** `(v) => <e's comparison on v>` for a comparison whose left side is unpacked by `[*]`. */
  private predicate(e: CompareExpr): string {
    return this.out.arrow('v', (scope) => new CompareEmitter(this.out, scope).code(e, typeOf(e.lhs), 'v'));
  }

  /** any(x[*] op literal) / all(…) as one generated loop, no array of booleans. */
  private fused(kind: 'some' | 'every', arg: Expr): string | undefined {
    if (arg.kind !== 'compare' || !arg.lhs.each || arg.rhs.kind === 'list_ref') return undefined;
    const loop = this.out.block('a', (scope) => {
      const test = new CompareEmitter(this.out, scope).code(arg, typeOf(arg.lhs), 'v');
      const [hit, found, missed] = kind === 'some' ? [test, 'true', 'false'] : [`!${test}`, 'false', 'true'];
      return `for (let i = 0; i < a.length; i++) { const v = a[i]; if (${hit}) return ${found}; } return ${missed};`;
    });
    return `${loop}(${this.each(arg.lhs)})`;
  }

  private call(e: CallExpr): string {
    const fn = this.scheme.function(e.name);
    if (!fn) throw new TypeError(`unknown function ${e.name}`);
    const first = e.args[0];
    if ((fn === any || fn === all) && first) {
      const kind = fn === any ? 'some' : 'every';
      return this.fused(kind, first) ?? `h.${kind}(${this.vector(first)})`;
    }
    if ((fn === lower || fn === upper) && first) {
      const name = fn === lower ? 'Lower' : 'Upper';
      if (first.each) return `h.${name.toLowerCase()}Each(${this.each(first)})`;
      return this.scope.memo(print(e), () => {
        const t = this.scope.temp();
        return `((${t} = ${this.value(first)}) === undefined ? undefined : h.ascii${name}(${t}))`;
      });
    }
    if (fn === len && first && !first.each) return `h.len(${this.value(first)})`;
    const affix = this.affix(e, false);
    if (affix !== undefined) return affix;
    // Any other function: its own compiled closure over generated argument evaluators.
    const literals = e.args.map(literalOf);
    const evaluator = (arg: Expr) =>
      this.nested('ctx', (gen) => (fn.predicate && arg === first ? gen.vector(arg) : gen.value(arg)));
    if (first?.each && !fn.predicate) {
      const rest = e.args.slice(1).map(evaluator);
      const bound = this.out.declare(`${this.k(elementBinder(fn, literals))}(${rest.join(', ')})`);
      return `${bound}(ctx, ${this.each(first)})`;
    }
    const bound = this.out.declare(`${this.k(binder(fn, literals))}(${e.args.map(evaluator).join(', ')})`);
    return `${bound}(ctx)`;
  }
}
