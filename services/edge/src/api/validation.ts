import type { CairnError } from '@cairn/kit';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { invalidBody, invalidParameter, invalidValue, noSuchObject } from './errors.ts';
import { type JsonSchema, pointerTo, type Static, type TSchema } from './schema.ts';

/**
 * The edge API's one validator: Ajv, for the route schemas Fastify compiles (params, querystring, body)
 * and for the parts of a body whose shape depends on another field (a rule's action_parameters, checked
 * once the action is known). Strict: no type coercion (a body's "5" is not a number; query text is
 * turned into numbers and booleans by `queryValues` first), unknown fields are errors, not removed. Its
 * first error becomes the envelope's error, in the API's words (`formatEdgeErrors`).
 */
const edgeAjv = new Ajv({
  allErrors: false,
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: true,
  verbose: true,
  strictTypes: false,
  keywords: ['x-message', 'x-empty', 'x-not-found'],
});

/**
 * `x-null-absent` on an object: before its fields are checked, an optional field given as null is
 * removed (null means "not given"), and so are read-only fields (accepted and ignored).
 */
edgeAjv.addKeyword({
  keyword: 'x-null-absent',
  type: 'object',
  schemaType: 'boolean',
  modifying: true,
  before: 'maxProperties',
  validate(enabled: boolean, data: Record<string, unknown>, parentSchema?: JsonSchema) {
    if (!enabled || !parentSchema) return true;
    const required = (parentSchema.required as string[] | undefined) ?? [];
    const properties = (parentSchema.properties as Record<string, JsonSchema> | undefined) ?? {};
    for (const key of Object.keys(data)) {
      const field = properties[key];
      if (!field) continue;
      if (field.readOnly === true || (data[key] === null && !required.includes(key))) delete data[key];
    }
    return true;
  },
});

const compiled = new WeakMap<object, ValidateFunction>();

function compileEdgeSchema(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = edgeAjv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/**
 * A route's validator, compiled by Ajv on its first call rather than at startup: an app with the ~70
 * edge routes starts as fast as without schemas (compiling them all took ~100 ms of CPU), and a route
 * never called costs nothing. Fastify reads `errors` off the function it was given.
 */
export function compileOnFirstUse(schema: object): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const validate = ((data: unknown) => {
    compiled ??= compileEdgeSchema(schema);
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  }) as ValidateFunction;
  return validate;
}

/** Checks `value` (found at `pointer` of the body) against `schema`; throws the envelope's 400. */
export function check<T extends TSchema>(schema: T, value: unknown, pointer: string): Static<T> {
  const validate = compileEdgeSchema(schema);
  if (!validate(value)) throw formatEdgeErrors(validate.errors ?? [], 'body', { prefix: pointer });
  return value as Static<T>;
}

type AjvError = ErrorObject & { parentSchema?: JsonSchema; data?: unknown };

/**
 * The error Ajv reports for a value: its first error, except under anyOf, where each alternative
 * reported its own first error: the alternative whose type matched and that failed deeper says what is
 * wrong; when none matched, the first alternative (a nullable field's type, a `oneOrMany`'s item).
 */
function decisive(errors: AjvError[]): AjvError {
  const anyOf = errors.findLast((e) => e.keyword === 'anyOf');
  if (!anyOf) return errors[0]!;
  const branches = new Map<string, AjvError[]>();
  for (const e of errors) {
    if (!e.schemaPath.startsWith(`${anyOf.schemaPath}/`)) continue;
    const branch = e.schemaPath.slice(anyOf.schemaPath.length + 1).split('/')[0]!;
    branches.set(branch, [...(branches.get(branch) ?? []), e]);
  }
  const all = [...branches.values()];
  const deeper = all.find(
    (b) => !(b[0]!.keyword === 'type' && b[0]!.instancePath === anyOf.instancePath && b.length === 1),
  );
  const chosen = deeper ?? all[0];
  return chosen ? decisive(chosen) : anyOf;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

function expected(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.join(', ')}`;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  return EXPECTED[String(type)] ?? `of type ${String(type)}`;
}

const unescapeSegment = (segment: string) => segment.replaceAll('~1', '/').replaceAll('~0', '~');

/** The index of the first item equal to an earlier one (JSON equality, as the items were given). */
function firstRepeat(items: unknown[]): number {
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const key = JSON.stringify(items[i]);
    if (seen.has(key)) return i;
    seen.add(key);
  }
  return items.length - 1;
}

/** Why a body value is refused: the reason after "because" in `'<value>' is not a valid value for …`. */
function bodyReason(e: AjvError): { reason: string; value?: unknown; at?: string } {
  const schema = e.parentSchema ?? {};
  const hint = typeof schema['x-message'] === 'string' ? (schema['x-message'] as string) : undefined;
  const limit = (e.params as { limit?: number }).limit ?? 0;
  switch (e.keyword) {
    case 'type':
      return { reason: `it must be ${expected(schema)}, not ${typeName(e.data)}` };
    case 'enum':
      return { reason: `it must be one of ${(schema.enum as unknown[]).join(', ')}` };
    case 'minLength':
      return {
        reason: limit === 1 ? 'it must not be empty' : `it must be at least ${limit} characters long`,
      };
    case 'maxLength':
      return { reason: `it must be at most ${limit} characters long` };
    case 'pattern':
      return { reason: hint ?? `it must be a string matching ${String(schema.pattern)}` };
    case 'minimum':
    case 'maximum':
      return { reason: `it must be from ${String(schema.minimum)} to ${String(schema.maximum)}` };
    case 'minItems':
      return { reason: limit === 1 ? 'it must not be empty' : `it needs at least ${limit} items` };
    case 'maxItems':
      return hint
        ? { reason: hint, value: `${(e.data as unknown[]).length} items` }
        : { reason: `it may have at most ${limit} items` };
    case 'uniqueItems': {
      const items = e.data as unknown[];
      const i = firstRepeat(items);
      return { reason: 'it is listed twice', value: items[i], at: `/${i}` };
    }
    case 'minProperties':
      return { reason: hint ?? `it needs at least ${limit} fields` };
    default:
      return { reason: `it ${e.message ?? 'is not valid'}` };
  }
}

/**
 * The error the real service reports first for an object: Ajv checks minProperties and required before
 * the fields, the service checks for unknown fields first, then each field in the order the schema
 * declares them (missing, or its value), then minProperties. On the error paths only: a field is
 * checked again on its own schema.
 */
function inOrder(e: AjvError, prefix: string): CairnError | undefined {
  if (e.keyword !== 'required' && e.keyword !== 'minProperties') return undefined;
  const schema = e.parentSchema ?? {};
  const data = e.data as Record<string, unknown>;
  const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
  const pointer = `${prefix}${e.instancePath}`;
  if (schema.additionalProperties === false) {
    const unknown = Object.keys(data).find((k) => !Object.hasOwn(properties, k));
    if (unknown !== undefined)
      return invalidBody(pointerTo(pointer, unknown), `invalid JSON: unknown field "${unknown}"`);
  }
  const required = (schema.required as string[] | undefined) ?? [];
  for (const [name, field] of Object.entries(properties)) {
    if (data[name] === undefined) {
      if (required.includes(name))
        return invalidBody(pointerTo(pointer, name), `invalid JSON: missing required field "${name}"`);
      continue;
    }
    const validate = compileEdgeSchema(field);
    if (!validate(data[name]))
      return formatBody(decisive(validate.errors as AjvError[]), pointerTo(pointer, name));
  }
  return undefined;
}

function formatBody(e: AjvError, prefix: string): CairnError {
  const first = inOrder(e, prefix);
  if (first) return first;
  const pointer = `${prefix}${e.instancePath}`;
  const params = e.params as { missingProperty?: string; additionalProperty?: string; propertyName?: string };
  if (e.keyword === 'required') {
    const name = params.missingProperty!;
    return invalidBody(pointerTo(pointer, name), `invalid JSON: missing required field "${name}"`);
  }
  if (e.keyword === 'additionalProperties') {
    const name = params.additionalProperty!;
    return invalidBody(pointerTo(pointer, name), `invalid JSON: unknown field "${name}"`);
  }
  const key = (e as { propertyName?: string }).propertyName;
  if (key !== undefined) {
    // A key of a record: the propertyNames schema says what keys must be.
    const hint = e.parentSchema?.['x-message'];
    return invalidValue(
      pointerTo(pointer, key),
      key,
      typeof hint === 'string' ? hint : 'it is not a valid key',
    );
  }
  const { reason, value, at } = bodyReason(e);
  return invalidValue(`${pointer}${at ?? ''}`, value === undefined ? e.data : value, reason);
}

/** A query parameter's error: `Query parameter <name> must be …, not "<text>"`. */
function formatQuery(e: AjvError): CairnError {
  const [first, ...rest] = e.instancePath.split('/').slice(1).map(unescapeSegment);
  const name = first ?? '';
  const schema = e.parentSchema ?? {};
  const data = e.data;
  if (rest.length > 0) {
    // An item of a list parameter (id=a&id=b, id=a,b).
    const hint = typeof schema['x-message'] === 'string' ? schema['x-message'] : 'is not valid';
    return invalidParameter(name, `Query parameter ${name}: "${String(data)}" ${hint}`);
  }
  if (Array.isArray(data) && schema.type !== 'array') {
    return invalidParameter(name, `Query parameter ${name} is given ${data.length} times; give it once`);
  }
  const text = String(data);
  if (schema.type === 'integer') {
    return invalidParameter(
      name,
      `Query parameter ${name} must be an integer from ${String(schema.minimum)} to ${String(schema.maximum)}, not "${text}"`,
    );
  }
  if (Array.isArray(schema.enum)) {
    if (data === '' && typeof schema['x-empty'] === 'string')
      return invalidParameter(name, `Query parameter ${name} is empty: ${schema['x-empty']}`);
    return invalidParameter(
      name,
      `Query parameter ${name} must be one of ${schema.enum.join(', ')}, not "${text}"`,
    );
  }
  if (schema.type === 'boolean') {
    const custom = schema['x-message'];
    return invalidParameter(
      name,
      typeof custom === 'string'
        ? custom.replaceAll('{name}', name).replaceAll('{text}', text)
        : `Query parameter ${name} must be true or false, not "${text}"`,
    );
  }
  if (e.keyword === 'maxLength')
    return invalidParameter(
      name,
      `Query parameter ${name} must be at most ${String(schema.maxLength)} characters`,
    );
  return invalidParameter(name, `Query parameter ${name} ${e.message ?? 'is not valid'}`);
}

/** A path parameter's error: its `x-not-found` (a 404 naming the path) or `x-message`, `{value}` filled in. */
function formatParams(e: AjvError, path: string): CairnError {
  const name = unescapeSegment(e.instancePath.slice(1));
  const schema = e.parentSchema ?? {};
  const value = String(e.data);
  const fill = (template: unknown) => String(template).replaceAll('{value}', value);
  if (schema['x-not-found'] !== undefined) return noSuchObject(path, fill(schema['x-not-found']));
  if (schema['x-message'] !== undefined) return invalidParameter(name, fill(schema['x-message']));
  return invalidParameter(name, `'${value}' is not a valid ${name}`);
}

/**
 * Ajv's errors for one part of a request as the edge API's error: body values in the real service's
 * words with a JSON pointer (`prefix` when the value sits inside the body), query and path parameters
 * naming the parameter.
 */
export function formatEdgeErrors(
  errors: readonly ErrorObject[],
  part: string,
  where: { prefix?: string; path?: string } = {},
): CairnError {
  const e = decisive(errors as AjvError[]);
  if (part === 'querystring') return formatQuery(e);
  if (part === 'params') return formatParams(e, where.path ?? '');
  return formatBody(e, where.prefix ?? '');
}

/**
 * Query text as the values the querystring schema describes, before Ajv checks them: an empty value is
 * no value (unless the parameter's `x-empty` says why it can't be), a list parameter takes repeated and
 * comma-separated values, an integer is written in decimal digits, a boolean is true/1 or false/0.
 * Anything else stays text, for Ajv to refuse in the parameter's words.
 */
export function queryValues(
  raw: Record<string, string | string[] | undefined>,
  properties: Record<string, JsonSchema>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...raw };
  for (const [name, schema] of Object.entries(properties)) {
    const value = raw[name];
    if (value === undefined) continue;
    if (schema.type === 'array') {
      out[name] = (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(','));
      continue;
    }
    if (Array.isArray(value)) {
      if (value.length === 1) out[name] = value[0];
      else continue;
    }
    const text = out[name] as string;
    if (text === '') {
      if (schema['x-empty'] === undefined) delete out[name];
      continue;
    }
    if (schema.type === 'integer' && /^-?\d{1,10}$/.test(text)) out[name] = Number(text);
    else if (schema.type === 'boolean') {
      if (text === 'true' || text === '1') out[name] = true;
      else if (text === 'false' || text === '0') out[name] = false;
    }
  }
  return out;
}
