import { type Static, type TSchema, Type } from 'typebox';
import { HEX_ID } from './ids.ts';

/**
 * The edge API's request schemas: TypeBox schemas that Ajv validates (validation.ts) and /openapi.json
 * documents. Two annotations word the errors where the keyword alone can't: `x-message` (the reason
 * after "because", e.g. what a pattern means) and, on objects, `x-null-absent` (a null optional field
 * counts as absent and read-only fields a client may send back are dropped, before the fields are
 * checked). validation.ts turns Ajv's first error into the envelope's `{code, message, source}`.
 */
export type JsonSchema = Record<string, unknown>;
export type { Static, TSchema };

export const pointerTo = (parent: string, key: string | number) =>
  `${parent}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;

interface StringOptions {
  min?: number;
  max?: number;
  pattern?: RegExp;
  /** What the pattern means, for the message ("a 32-character hex id"). */
  patternHint?: string;
  description?: string;
}

const described = (description: string | undefined) => (description ? { description } : {});

export function str(options: StringOptions = {}) {
  return Type.String({
    ...(options.min !== undefined ? { minLength: options.min } : {}),
    ...(options.max !== undefined ? { maxLength: options.max } : {}),
    ...(options.pattern ? { pattern: options.pattern.source } : {}),
    ...(options.pattern
      ? { 'x-message': `it must be ${options.patternHint ?? `a string matching ${options.pattern.source}`}` }
      : {}),
    ...described(options.description),
  });
}

export const hexId = (description?: string) =>
  str({
    pattern: HEX_ID,
    patternHint: 'a 32-character lowercase hex id',
    ...(description ? { description } : {}),
  });

export function oneOf<const T extends string>(values: readonly T[], description?: string) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...described(description) });
}

export const bool = (description?: string) => Type.Boolean(described(description));

export const int = (min: number, max: number, description?: string) =>
  Type.Integer({ minimum: min, maximum: max, ...described(description) });

export function arr<T extends TSchema>(
  item: T,
  options: { min?: number; max?: number; unique?: boolean; description?: string } = {},
) {
  return Type.Array(item, {
    ...(options.min !== undefined ? { minItems: options.min } : {}),
    ...(options.max !== undefined ? { maxItems: options.max } : {}),
    ...(options.unique ? { uniqueItems: true } : {}),
    ...described(options.description),
  });
}

/** An object whose keys are data (`{"<rule id>": "block"}`): keys match `key.pattern`. */
export function record<T extends TSchema>(
  key: { pattern: RegExp; problem: string; description: string },
  value: T,
  options: { description?: string; min?: number } = {},
) {
  return Type.Unsafe<Record<string, Static<T>>>({
    type: 'object',
    propertyNames: { pattern: key.pattern.source, 'x-message': key.problem, description: key.description },
    additionalProperties: value,
    ...(options.min ? { minProperties: options.min, 'x-message': 'it must not be empty' } : {}),
    ...described(options.description),
  });
}

export const optional = <T extends TSchema>(schema: T) => Type.Optional(schema);

export const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Accepted and ignored (read-only fields a client may send back, e.g. a rule's `version`). */
export const ignored = (schema: JsonSchema) =>
  Type.Optional(Type.Unsafe<undefined>({ ...schema, readOnly: true }));

/** Any JSON value (checked by the handler, e.g. a page rule action's value, which depends on its id). */
export const anyValue = (description: string) => Type.Unknown({ description });

/**
 * A JSON object with known fields: unknown fields are refused, `null` counts as absent for optional
 * fields, required fields must be present. `minPropertiesHint` is the reason given when fewer than
 * `minProperties` fields are set.
 */
export function obj<P extends Record<string, TSchema>>(
  fields: P,
  options: { description?: string; minProperties?: number; minPropertiesHint?: string } = {},
) {
  return Type.Object(fields, {
    additionalProperties: false,
    'x-null-absent': true,
    ...(options.minProperties ? { minProperties: options.minProperties } : {}),
    ...(options.minPropertiesHint ? { 'x-message': options.minPropertiesHint } : {}),
    ...described(options.description),
  });
}

/** A JSON object of any fields (what they must be depends on another field; the handler checks them). */
export const anyObject = (description: string) =>
  Type.Unsafe<Record<string, unknown>>({ type: 'object', description });

/**
 * A JSON array of up to `max` items, or (leniently, as SDKs that mis-type the body send) one item. The
 * item comes first, so a value that is neither is refused in the item's words.
 */
export function oneOrMany<T extends TSchema>(item: T, max: number) {
  return Type.Union([
    item,
    Type.Array(item, {
      minItems: 1,
      maxItems: max,
      'x-message': `at most ${max} items per request`,
    }),
  ]);
}

/** The items of a `oneOrMany` body, each with its pointer (`/<i>` in an array, `` for one item). */
export function eachItem<T>(body: T | T[]): { input: T; pointer: string }[] {
  if (!Array.isArray(body)) return [{ input: body, pointer: '' }];
  return body.map((input, i) => ({ input, pointer: pointerTo('', i) }));
}
