// The execution context: the values of one request's fields. A value is given eagerly (`set`),
// by a getter (`define`), or by the context's resolver; a lazily provided value is computed at
// most once per context, on first use, and type-checked against the scheme when it arrives.

import { RulesContextError } from './errors.ts';
import { NOT_COMPUTED } from './runtime.ts';
import type { FieldDef, Scheme } from './scheme.ts';
import { coerceValue } from './values/coerce.ts';
import type { ListMatcher } from './values/list-matcher.ts';

export type FieldGetter = () => unknown;

/** Computes a field's value on first use; return undefined for a missing value. */
export type FieldResolver = (field: FieldDef, ctx: ExecutionContext) => unknown;

export interface ContextOptions {
  /** Values of named lists (`$name`), e.g. built with `createList`. */
  readonly lists?: ReadonlyMap<string, ListMatcher> | Readonly<Record<string, ListMatcher>>;
  /** Called for fields that were neither `set` nor `define`d. */
  readonly resolve?: FieldResolver;
}

const NO_LISTS: ReadonlyMap<string, ListMatcher> = new Map();

/** Per scheme: an all-NOT_COMPUTED slot array to copy (rebuilt when fields are added). */
const templates = new WeakMap<Scheme, unknown[]>();

function freshSlots(scheme: Scheme): unknown[] {
  const n = scheme.fields.length;
  let template = templates.get(scheme);
  if (template?.length !== n) {
    template = new Array<unknown>(n).fill(NOT_COMPUTED);
    templates.set(scheme, template);
  }
  return template.slice();
}

export class ExecutionContext {
  /**
   * Values by field index (NOT_COMPUTED until first read). Generated filters (compiler.ts) read
   * these slots directly and call `compute` for a NOT_COMPUTED one, as `read` does.
   */
  private readonly values: unknown[];
  /** `define`d getters by field index, allocated on the first `define`. */
  private getters: (FieldGetter | undefined)[] | undefined;
  private readonly resolver: FieldResolver | undefined;
  private readonly listValues: ReadonlyMap<string, ListMatcher>;

  constructor(
    readonly scheme: Scheme,
    options: ContextOptions = {},
  ) {
    this.values = freshSlots(scheme);
    this.getters = undefined;
    this.resolver = options.resolve;
    const lists = options.lists;
    this.listValues =
      lists instanceof Map ? lists : lists === undefined ? NO_LISTS : new Map(Object.entries(lists));
  }

  private field(name: string): FieldDef {
    const def = this.scheme.field(name);
    if (!def) throw new RulesContextError(`unknown field ${JSON.stringify(name)}`);
    return def;
  }

  /** Sets a field's value now (checked against its type); `undefined` makes it missing. */
  set(name: string, value: unknown): this {
    const def = this.field(name);
    this.values[def.index] = coerceValue(def.type, value, name);
    return this;
  }

  /** Provides a field's value lazily: `getter` runs at most once, when an expression reads it. */
  define(name: string, getter: FieldGetter): this {
    const def = this.field(name);
    this.getters ??= new Array<FieldGetter | undefined>(this.values.length);
    this.getters[def.index] = getter;
    this.values[def.index] = NOT_COMPUTED;
    return this;
  }

  /** The field's value (computing it if needed), or undefined when missing. */
  get(name: string): unknown {
    return this.read(this.field(name).index);
  }

  /** Hot path used by compiled filters. */
  read(index: number): unknown {
    const v = this.values[index];
    return v !== NOT_COMPUTED ? v : this.compute(index);
  }

  /** Computes slot `index` and stores it (also called by generated filters, see `values`). */
  private compute(index: number): unknown {
    const def = this.scheme.fields[index];
    if (!def) throw new RulesContextError(`no field at index ${index}`);
    const getter = this.getters?.[index];
    const raw = getter ? getter() : this.resolver ? this.resolver(def, this) : undefined;
    const value = coerceValue(def.type, raw, def.name);
    this.values[index] = value;
    return value;
  }

  /** The named list's matcher, or undefined when the context has none (`in $name` is then false). */
  list(name: string): ListMatcher | undefined {
    return this.listValues.get(name);
  }
}
