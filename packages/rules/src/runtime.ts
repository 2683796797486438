// Helpers that generated filters call for the less common operations: element vectors under
// `[*]`, functions without an inline form, bitwise and, a context of the wrong scheme. Missing
// values are undefined throughout.

import type { ExecutionContext } from './context.ts';
import { RulesContextError } from './errors.ts';
import type { Evaluator, FunctionDef, LiteralValue } from './functions/definition.ts';
import { asciiLower, asciiUpper } from './values/bytes.ts';
import type { ListMatcher } from './values/list-matcher.ts';

type Elements = readonly unknown[];
type Container = readonly unknown[] | ReadonlyMap<string, unknown> | undefined;
type Keyed = ReadonlyMap<string, unknown> | undefined;

const EMPTY: Elements = Object.freeze([]);

/** The initial value of a generated filter's memoised subexpressions (`NC` in the source). */
export const NOT_COMPUTED: unique symbol = Symbol('not computed');

/** Binds a function's compiled form to generated argument evaluators. */
export type Binder = (...evaluators: Evaluator[]) => Evaluator;
/** Binds a function applied per element of its `[*]` first argument. */
export type ElementBinder = (
  ...rest: Evaluator[]
) => (ctx: ExecutionContext, elements: Elements) => unknown[];

export function binder(fn: FunctionDef, literals: readonly (LiteralValue | undefined)[]): Binder {
  return (...evaluators) => fn.compile(evaluators.map((evaluate, i) => ({ evaluate, literal: literals[i] })));
}

export function elementBinder(
  fn: FunctionDef,
  literals: readonly (LiteralValue | undefined)[],
): ElementBinder {
  return (...rest) => {
    const cell: { v: unknown } = { v: undefined };
    const inner = fn.compile([
      { evaluate: () => cell.v },
      ...rest.map((evaluate, i) => ({ evaluate, literal: literals[i + 1] })),
    ]);
    return (ctx, elements) => {
      const out = new Array<unknown>(elements.length);
      for (let i = 0; i < elements.length; i++) {
        cell.v = elements[i];
        out[i] = inner(ctx);
      }
      return out;
    };
  };
}

function bitAnd(a: number, b: number): boolean {
  if (a >= -0x80000000 && a <= 0x7fffffff && b >= -0x80000000 && b <= 0x7fffffff) return (a & b) !== 0;
  return (BigInt(a) & BigInt(b)) !== 0n;
}

function bool(x: unknown): boolean {
  return x === true;
}

function vectorOp(
  vectors: readonly (Elements | undefined)[],
  step: (acc: boolean, x: boolean) => boolean,
  start: boolean,
) {
  const arrays = vectors.map((v) => v ?? EMPTY);
  let n = Number.POSITIVE_INFINITY;
  for (const a of arrays) n = Math.min(n, a.length);
  const out = new Array<boolean>(n);
  for (let i = 0; i < n; i++) {
    let acc = start;
    for (const a of arrays) acc = step(acc, a[i] === true);
    out[i] = acc;
  }
  return out;
}

export const runtime = Object.freeze({
  asciiLower,
  asciiUpper,
  bitAnd,

  /** The elements `[*]` unpacks: an array as is, a map's values, nothing for a missing value. */
  elements(c: Container): Elements {
    if (c === undefined) return EMPTY;
    return Array.isArray(c) ? c : [...(c as ReadonlyMap<string, unknown>).values()];
  },
  atPosition(elements: Elements, n: number): Elements {
    return elements.map((x) => (x as Elements | undefined)?.[n]);
  },
  atKey(elements: Elements, k: string): Elements {
    return elements.map((x) => (x as Keyed)?.get(k));
  },
  lowerEach(elements: Elements): Elements {
    return elements.map((x) => (x === undefined ? undefined : asciiLower(x as string)));
  },
  upperEach(elements: Elements): Elements {
    return elements.map((x) => (x === undefined ? undefined : asciiUpper(x as string)));
  },
  inListEach(elements: Elements, list: ListMatcher | undefined): boolean[] {
    return elements.map((v) => (v === undefined || list === undefined ? false : list.includes(v)));
  },
  notEach(v: Elements | undefined): boolean[] {
    return (v ?? EMPTY).map((x) => x !== true);
  },
  andEach(vectors: readonly (Elements | undefined)[]): boolean[] {
    return vectorOp(vectors, (acc, x) => acc && x, true);
  },
  orEach(vectors: readonly (Elements | undefined)[]): boolean[] {
    return vectorOp(vectors, (acc, x) => acc || x, false);
  },
  xorEach(vectors: readonly (Elements | undefined)[]): boolean[] {
    return vectorOp(vectors, (acc, x) => acc !== x, false);
  },
  /** any(Array(Bool)): a missing array is false. */
  some(v: Elements | undefined): boolean {
    return v?.some(bool) === true;
  },
  /** all(Array(Bool)): a missing array is false, an empty one true. */
  every(v: Elements | undefined): boolean {
    return v?.every(bool) === true;
  },
  len(v: string | Elements | ReadonlyMap<string, unknown> | undefined): number | undefined {
    if (v === undefined) return undefined;
    return v instanceof Map ? v.size : (v as string | Elements).length;
  },
  wrongScheme(): never {
    throw new RulesContextError('the context was made for another scheme');
  },
});

export type Runtime = typeof runtime;
