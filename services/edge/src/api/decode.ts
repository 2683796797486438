import type { CairnError } from '@cairn/kit';
import { invalidBody, invalidValue } from './errors.ts';
import { HEX_ID } from './ids.ts';

/**
 * Strict request decoding, one source for validation and the OpenAPI document: each decoder checks a
 * value (an unknown field is an error naming it, with a JSON pointer) and carries its JSON Schema.
 */
export type JsonSchema = Record<string, unknown>;

export interface Decoder<T> {
  readonly schema: JsonSchema;
  decode(value: unknown, pointer: string): T;
  /** Present on optional fields of an object. */
  readonly optional?: true;
}

export type Decoded<D> = D extends Decoder<infer T> ? T : never;

export const pointerTo = (parent: string, key: string | number) =>
  `${parent}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

export function wrongType(pointer: string, value: unknown, expected: string): CairnError {
  return invalidValue(pointer, value, `it must be ${expected}, not ${typeName(value)}`);
}

interface StringOptions {
  min?: number;
  max?: number;
  pattern?: RegExp;
  /** What the pattern means, for the message ("a 32-character hex id"). */
  patternHint?: string;
  description?: string;
}

export function str(options: StringOptions = {}): Decoder<string> {
  const schema: JsonSchema = { type: 'string' };
  if (options.min !== undefined) schema.minLength = options.min;
  if (options.max !== undefined) schema.maxLength = options.max;
  if (options.pattern) schema.pattern = options.pattern.source;
  if (options.description) schema.description = options.description;
  return {
    schema,
    decode(value, pointer) {
      if (typeof value !== 'string') throw wrongType(pointer, value, 'a string');
      if (options.min !== undefined && value.length < options.min) {
        throw invalidValue(
          pointer,
          value,
          options.min === 1 ? 'it must not be empty' : `it must be at least ${options.min} characters long`,
        );
      }
      if (options.max !== undefined && value.length > options.max) {
        throw invalidValue(pointer, value, `it must be at most ${options.max} characters long`);
      }
      if (options.pattern && !options.pattern.test(value)) {
        throw invalidValue(
          pointer,
          value,
          `it must be ${options.patternHint ?? `a string matching ${options.pattern.source}`}`,
        );
      }
      return value;
    },
  };
}

export const hexId = (description?: string) =>
  str({
    pattern: HEX_ID,
    patternHint: 'a 32-character lowercase hex id',
    ...(description ? { description } : {}),
  });

export function oneOf<const T extends string>(values: readonly T[], description?: string): Decoder<T> {
  return {
    schema: { type: 'string', enum: [...values], ...(description ? { description } : {}) },
    decode(value, pointer) {
      if (typeof value !== 'string') throw wrongType(pointer, value, `one of ${values.join(', ')}`);
      if (!(values as readonly string[]).includes(value)) {
        throw invalidValue(pointer, value, `it must be one of ${values.join(', ')}`);
      }
      return value as T;
    },
  };
}

export function bool(description?: string): Decoder<boolean> {
  return {
    schema: { type: 'boolean', ...(description ? { description } : {}) },
    decode(value, pointer) {
      if (typeof value !== 'boolean') throw wrongType(pointer, value, 'true or false');
      return value;
    },
  };
}

export function int(min: number, max: number, description?: string): Decoder<number> {
  return {
    schema: { type: 'integer', minimum: min, maximum: max, ...(description ? { description } : {}) },
    decode(value, pointer) {
      if (typeof value !== 'number' || !Number.isInteger(value))
        throw wrongType(pointer, value, 'an integer');
      if (value < min || value > max) throw invalidValue(pointer, value, `it must be from ${min} to ${max}`);
      return value;
    },
  };
}

export function arr<T>(
  item: Decoder<T>,
  options: { min?: number; max?: number; unique?: boolean; description?: string } = {},
): Decoder<T[]> {
  const schema: JsonSchema = { type: 'array', items: item.schema };
  if (options.min !== undefined) schema.minItems = options.min;
  if (options.max !== undefined) schema.maxItems = options.max;
  if (options.unique) schema.uniqueItems = true;
  if (options.description) schema.description = options.description;
  return {
    schema,
    decode(value, pointer) {
      if (!Array.isArray(value)) throw wrongType(pointer, value, 'an array');
      if (options.min !== undefined && value.length < options.min) {
        throw invalidValue(
          pointer,
          value,
          options.min === 1 ? 'it must not be empty' : `it needs at least ${options.min} items`,
        );
      }
      if (options.max !== undefined && value.length > options.max) {
        throw invalidValue(pointer, value, `it may have at most ${options.max} items`);
      }
      const out = value.map((v, i) => item.decode(v, pointerTo(pointer, i)));
      if (options.unique) {
        const seen = new Set<string>();
        out.forEach((v, i) => {
          const key = JSON.stringify(v);
          if (seen.has(key)) throw invalidValue(pointerTo(pointer, i), v, 'it is listed twice');
          seen.add(key);
        });
      }
      return out;
    },
  };
}

/** An object whose keys are data (`{"<rule id>": "block"}`). */
export function record<T>(
  key: { check(key: string): string | undefined; description: string },
  valueDecoder: Decoder<T>,
  options: { description?: string; min?: number } = {},
): Decoder<Record<string, T>> {
  return {
    schema: {
      type: 'object',
      additionalProperties: valueDecoder.schema,
      ...(options.min ? { minProperties: options.min } : {}),
      ...(options.description ? { description: options.description } : {}),
    },
    decode(value, pointer) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw wrongType(pointer, value, 'an object');
      }
      const out: Record<string, T> = {};
      const entries = Object.entries(value);
      if (options.min && entries.length < options.min)
        throw invalidValue(pointer, value, 'it must not be empty');
      for (const [k, v] of entries) {
        const problem = key.check(k);
        if (problem) throw invalidValue(pointerTo(pointer, k), k, problem);
        out[k] = valueDecoder.decode(v, pointerTo(pointer, k));
      }
      return out;
    },
  };
}

export function optional<T>(decoder: Decoder<T>): Decoder<T | undefined> & { optional: true } {
  return { schema: decoder.schema, optional: true, decode: (v, p) => decoder.decode(v, p) };
}

export function nullable<T>(decoder: Decoder<T>): Decoder<T | null> {
  return {
    schema: { anyOf: [decoder.schema, { type: 'null' }] },
    decode: (v, p) => (v === null ? null : decoder.decode(v, p)),
  };
}

/** Accepted and ignored (read-only fields a client may send back, e.g. a rule's `version`). */
export function ignored(schema: JsonSchema): Decoder<undefined> & { optional: true } {
  return { schema: { ...schema, readOnly: true }, optional: true, decode: () => undefined };
}

type Fields = Record<string, Decoder<unknown>>;
type OptionalKeys<F extends Fields> = {
  [K in keyof F]: F[K] extends { optional: true } ? K : never;
}[keyof F];
type RequiredKeys<F extends Fields> = Exclude<keyof F, OptionalKeys<F>>;
export type ObjectOf<F extends Fields> = { [K in RequiredKeys<F>]: Decoded<F[K]> } & {
  [K in OptionalKeys<F>]?: Exclude<Decoded<F[K]>, undefined>;
};

/**
 * A JSON object with known fields: unknown fields are refused, `null` counts as absent for optional
 * fields, required fields must be present.
 */
export function obj<F extends Fields>(
  fields: F,
  options: { description?: string; minProperties?: number; minPropertiesHint?: string } = {},
): Decoder<ObjectOf<F>> & { fields: F } {
  const required = Object.keys(fields).filter((k) => !fields[k]!.optional);
  const schema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(Object.entries(fields).map(([k, d]) => [k, d.schema])),
    additionalProperties: false,
  };
  if (required.length > 0) schema.required = required;
  if (options.minProperties) schema.minProperties = options.minProperties;
  if (options.description) schema.description = options.description;
  return {
    schema,
    fields,
    decode(value, pointer) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw wrongType(pointer, value, 'an object');
      }
      const input = value as Record<string, unknown>;
      for (const key of Object.keys(input)) {
        if (!Object.hasOwn(fields, key)) {
          throw invalidBody(pointerTo(pointer, key), `invalid JSON: unknown field "${key}"`);
        }
      }
      const out: Record<string, unknown> = {};
      let given = 0;
      for (const [key, decoder] of Object.entries(fields)) {
        const raw = input[key];
        if (raw === undefined || (raw === null && decoder.optional)) {
          if (!decoder.optional) {
            throw invalidBody(pointerTo(pointer, key), `invalid JSON: missing required field "${key}"`);
          }
          continue;
        }
        given++;
        const decoded = decoder.decode(raw, pointerTo(pointer, key));
        if (decoded !== undefined) out[key] = decoded;
      }
      if (options.minProperties && given < options.minProperties) {
        throw invalidValue(
          pointer,
          value,
          options.minPropertiesHint ?? `it needs at least ${options.minProperties} fields`,
        );
      }
      return out as ObjectOf<F>;
    },
  };
}

/** Decodes by a discriminating check: the first decoder whose `when` accepts the value. */
export function custom<T>(schema: JsonSchema, decode: (value: unknown, pointer: string) => T): Decoder<T> {
  return { schema, decode };
}

/** A JSON array of items, or (leniently, as SDKs that mis-type the body send) one item. */
export function oneOrMany<T>(item: Decoder<T>, max: number): Decoder<{ input: T; pointer: string }[]> {
  return {
    schema: { anyOf: [{ type: 'array', items: item.schema, minItems: 1, maxItems: max }, item.schema] },
    decode(value, pointer) {
      if (!Array.isArray(value)) return [{ input: item.decode(value, pointer), pointer }];
      if (value.length === 0) throw invalidValue(pointer, value, 'it must not be empty');
      if (value.length > max)
        throw invalidValue(pointer, `${value.length} items`, `at most ${max} items per request`);
      return value.map((v, i) => ({
        input: item.decode(v, pointerTo(pointer, i)),
        pointer: pointerTo(pointer, i),
      }));
    },
  };
}
