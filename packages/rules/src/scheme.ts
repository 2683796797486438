// The scheme: the typed fields, the functions and the named lists an expression may use.
// Every name is registered once; a duplicate is an error (never a silent overwrite).

import { RulesSchemeError } from './errors.ts';
import type { FunctionDef } from './functions/definition.ts';
import { standardFunctions } from './functions/index.ts';
import { parseTypeName, type Type, typeName } from './types.ts';

export interface FieldDef {
  readonly name: string;
  readonly type: Type;
  /** Position in the scheme; execution contexts store values by it. */
  readonly index: number;
}

export interface ListDef {
  readonly name: string;
  readonly type: Type;
}

export interface SchemeInit {
  /** Field name → type (a Type or its name: `Bytes`, `Array(Bytes)`, `Map(Array(Bytes))`…). */
  readonly fields?: Readonly<Record<string, Type | string>>;
  /** Defaults to `standardFunctions` (every function of the language). */
  readonly functions?: readonly FunctionDef[];
  /** Named list (`$name`) → element type. */
  readonly lists?: Readonly<Record<string, Type | string>>;
}

const KEYWORDS = new Set([
  'and',
  'or',
  'xor',
  'not',
  'eq',
  'ne',
  'lt',
  'le',
  'gt',
  'ge',
  'contains',
  'matches',
  'wildcard',
  'strict',
  'in',
  'bitwise_and',
  'true',
  'false',
]);
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;
const FUNCTION_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const LIST_NAME = /^[a-z0-9_]+$/;

function toType(type: Type | string, what: string): Type {
  if (typeof type !== 'string') return type;
  const parsed = parseTypeName(type);
  if (!parsed) throw new RulesSchemeError(`${what}: unknown type ${JSON.stringify(type)}`);
  return parsed;
}

export class Scheme {
  private readonly fieldMap = new Map<string, FieldDef>();
  private readonly fieldList: FieldDef[] = [];
  private readonly functionMap = new Map<string, FunctionDef>();
  private readonly listMap = new Map<string, ListDef>();

  constructor(init: SchemeInit = {}) {
    for (const [name, type] of Object.entries(init.fields ?? {})) this.addField(name, type);
    for (const fn of init.functions ?? standardFunctions) this.addFunction(fn);
    for (const [name, type] of Object.entries(init.lists ?? {})) this.addList(name, type);
  }

  addField(name: string, type: Type | string): this {
    if (!FIELD_NAME.test(name) || KEYWORDS.has(name)) {
      throw new RulesSchemeError(`invalid field name ${JSON.stringify(name)}`);
    }
    if (this.fieldMap.has(name) || this.functionMap.has(name)) {
      throw new RulesSchemeError(`${JSON.stringify(name)} is already registered`);
    }
    const def: FieldDef = Object.freeze({ name, type: toType(type, name), index: this.fieldList.length });
    this.fieldMap.set(name, def);
    this.fieldList.push(def);
    return this;
  }

  addFunction(fn: FunctionDef): this {
    if (!FUNCTION_NAME.test(fn.name) || KEYWORDS.has(fn.name)) {
      throw new RulesSchemeError(`invalid function name ${JSON.stringify(fn.name)}`);
    }
    if (this.functionMap.has(fn.name) || this.fieldMap.has(fn.name)) {
      throw new RulesSchemeError(`${JSON.stringify(fn.name)} is already registered`);
    }
    this.functionMap.set(fn.name, fn);
    return this;
  }

  addList(name: string, type: Type | string): this {
    if (!LIST_NAME.test(name)) throw new RulesSchemeError(`invalid list name ${JSON.stringify(name)}`);
    if (this.listMap.has(name)) throw new RulesSchemeError(`list $${name} is already registered`);
    const t = toType(type, `$${name}`);
    if (t.kind !== 'Bytes' && t.kind !== 'Int' && t.kind !== 'Ip') {
      throw new RulesSchemeError(`list $${name}: lists hold Bytes, Int or Ip, not ${typeName(t)}`);
    }
    this.listMap.set(name, Object.freeze({ name, type: t }));
    return this;
  }

  field(name: string): FieldDef | undefined {
    return this.fieldMap.get(name);
  }

  function(name: string): FunctionDef | undefined {
    return this.functionMap.get(name);
  }

  list(name: string): ListDef | undefined {
    return this.listMap.get(name);
  }

  get fields(): readonly FieldDef[] {
    return this.fieldList;
  }

  get functions(): readonly FunctionDef[] {
    return [...this.functionMap.values()];
  }

  get lists(): readonly ListDef[] {
    return [...this.listMap.values()];
  }
}
