import type { CairnError } from '@cairn/kit';
import { Ajv, type AnySchemaObject, type ErrorObject } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import type { Static, TSchema } from 'typebox';
import { invalidParameter } from '../errors.ts';
import { unexpectedFieldsIn } from '../search/fields.ts';
import type { RawQuery } from '../search/params.ts';
import { SearchQuery, type SearchQueryValues } from './schemas.ts';

/**
 * How the places API checks its inputs: the route schemas, by Ajv, with no second validator.
 *
 * Fastify's shared Ajv coerces query text to the declared type with JavaScript's `+text`, which takes
 * "1e1", " 5", "0x10" and "" as numbers; the places API takes an integer only as decimal digits. So places
 * compiles its schemas with an Ajv of its own that does not coerce, and a query parameter's text is
 * converted only when it is in the declared type's plain form: digits (with a minus) for an integer,
 * true/false/1/0 for a boolean; an enum's member in any case (sort=rating, reason=closed, as the API always
 * took them) becomes the member as declared. Any other text reaches Ajv as text and fails the type check, and the
 * parameter's `x-message` says what it must be.
 *
 * Schema keywords for the messages (`{value}` in a message is replaced by the given text, quoted):
 * - `x-message` on a parameter: the detail after "Invalid <name>: " when its value is refused;
 * - `x-required` on a parameter: what to give, when a required parameter is missing;
 * - `x-fields` on `fields`: an unknown name is reported as the real service does ("Unexpected field(s)").
 */
const ajv = new Ajv({
  coerceTypes: false,
  useDefaults: true,
  removeAdditional: false,
  allErrors: false,
  verbose: true,
  keywords: ['x-message', 'x-required', 'x-fields'],
});

const INTEGER_TEXT = /^-?\d{1,15}$/;
const BOOLEANS: Record<string, boolean> = { true: true, false: false, 1: true, 0: false };

type Properties = Record<string, AnySchemaObject>;
type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null | undefined };

/** Each query parameter in its declared type when its text is that type's plain form; the rest as given. */
function convertQueryText(query: Record<string, unknown>, properties: Properties) {
  for (const [name, schema] of Object.entries(properties)) {
    const value = query[name];
    if (typeof value !== 'string') continue;
    if (schema.type === 'integer' && INTEGER_TEXT.test(value)) query[name] = Number(value);
    else if (schema.type === 'boolean' && value in BOOLEANS) query[name] = BOOLEANS[value];
    else if (Array.isArray(schema.enum)) query[name] = enumMember(schema.enum, value) ?? value;
  }
}

/** The enum's member that the text names in any case, with spaces around (as the API took them before). */
function enumMember(members: unknown[], text: string) {
  const key = text.trim().toUpperCase();
  return members.find((m) => typeof m === 'string' && m.toUpperCase() === key);
}

/** A validator of query text: plain forms converted, then the schema checked by Ajv. */
function compileQuery(schema: AnySchemaObject): Validate {
  const validate = ajv.compile(schema);
  const properties = (schema.properties ?? {}) as Properties;
  const validateQuery: Validate = (data) => {
    if (data !== null && typeof data === 'object')
      convertQueryText(data as Record<string, unknown>, properties);
    const ok = validate(data) as boolean;
    validateQuery.errors = validate.errors;
    return ok;
  };
  return validateQuery;
}

/** Fastify's validator compiler for the places routes (set in the places plugin's scope). */
export const placesValidatorCompiler: FastifySchemaCompiler<AnySchemaObject> = ({ schema, httpPart }) =>
  httpPart === 'querystring' ? compileQuery(schema) : ajv.compile(schema);

const inProcess = new WeakMap<object, Validate>();

/**
 * Query text checked by a route's schema exactly as over HTTP, for in-process callers that hold text (the
 * place editor's search): the typed values, or the same 400 the route would answer.
 */
export function checkQuery<T extends TSchema>(schema: T, raw: RawQuery): Static<T> {
  let validate = inProcess.get(schema);
  if (!validate) {
    validate = compileQuery(schema as unknown as AnySchemaObject);
    inProcess.set(schema, validate);
  }
  const data: Record<string, unknown> = { ...raw };
  if (!validate(data))
    throw placesSchemaErrors(validate.errors as FastifySchemaValidationError[], 'querystring');
  return data as Static<T>;
}

/** The search parameters from query text (see checkQuery). */
export const searchQuery = (raw: RawQuery): SearchQueryValues => checkQuery(SearchQuery, raw);

const quote = (value: unknown) => `"${String(value).slice(0, 40)}"`;

/** Ajv's first error as the places API's `{message}`: "Invalid <parameter>: <what it must be>". */
export function placesSchemaErrors(errors: FastifySchemaValidationError[], dataVar: string): CairnError {
  const first = errors[0] as FastifySchemaValidationError & {
    data?: unknown;
    parentSchema?: AnySchemaObject;
  };
  const params = first.params as { missingProperty?: string; additionalProperty?: string };
  const parent = first.parentSchema ?? {};
  if (params.missingProperty !== undefined) {
    const name = params.missingProperty;
    const property = (parent.properties as Properties | undefined)?.[name];
    const what = property?.['x-required'];
    return invalidParameter(name, `${name} is required${typeof what === 'string' ? `: ${what}` : ''}`);
  }
  if (params.additionalProperty !== undefined) {
    const name = params.additionalProperty.slice(0, 60);
    const takes = Object.keys(parent.properties ?? {}).join(', ');
    return invalidParameter(name, `this endpoint takes no parameter "${name}"; it takes ${takes}`);
  }
  const name = first.instancePath.split('/').filter(Boolean).join('.') || dataVar;
  const value = first.data;
  if (Array.isArray(value)) return invalidParameter(name, 'given more than once; give it once');
  if (parent['x-fields'] === true && typeof value === 'string') {
    const unexpected = unexpectedFieldsIn(value);
    if (unexpected) return unexpected;
  }
  const template = parent['x-message'];
  if (typeof template === 'string') return invalidParameter(name, template.replace('{value}', quote(value)));
  return invalidParameter(name, first.message ?? 'is not valid');
}
