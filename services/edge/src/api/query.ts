import { type TUnsafe, Type } from 'typebox';
import type { Static, TSchema } from './schema.ts';

/**
 * Query parameters: schemas of the values `queryValues` (validation.ts) makes of the query text, checked
 * by Ajv with the route's other schemas. Absent (or empty) parameters take their `default`.
 */
export type QueryParam<T> = TUnsafe<T>;
export type QuerySpec = Record<string, TSchema>;
export type QueryOf<S extends QuerySpec> = { [K in keyof S]: Static<S[K]> };

const param = <T>(schema: Record<string, unknown>) => Type.Unsafe<T>(schema);

export function qInt(min: number, max: number, fallback: number, description: string): QueryParam<number>;
export function qInt(
  min: number,
  max: number,
  fallback: undefined,
  description: string,
): QueryParam<number | undefined>;
export function qInt(
  min: number,
  max: number,
  fallback: number | undefined,
  description: string,
): QueryParam<number | undefined> {
  return param<number | undefined>({
    type: 'integer',
    minimum: min,
    maximum: max,
    ...(fallback === undefined ? {} : { default: fallback }),
    description,
  });
}

/**
 * One of `values`. An empty value counts as absent, unless `empty` says why it can't be: for a parameter
 * whose absence means something else (`waf_migration=` is not a plain Rulesets API write).
 */
export function qEnum<const T extends string>(
  values: readonly T[],
  description: string,
  options: { empty?: string } = {},
) {
  return param<T | undefined>({
    type: 'string',
    enum: [...values],
    description,
    ...(options.empty === undefined ? {} : { 'x-empty': options.empty }),
  });
}

export const qString = (description: string, max = 1000) =>
  param<string | undefined>({ type: 'string', maxLength: max, description });

/**
 * true/1 or false/0. `invalid` words the refusal of anything else, with {name} and {text} filled in
 * (the default: "Query parameter {name} must be true or false, not "{text}"").
 */
export const qBool = (description: string, invalid?: string) =>
  param<boolean | undefined>({
    type: 'boolean',
    description,
    ...(invalid === undefined ? {} : { 'x-message': invalid }),
  });

/**
 * A repeated parameter (`id=a&id=b`, also comma-separated) whose values match `pattern`; `problem` says
 * what a value that does not is ("is not a filter id").
 */
export const qList = (description: string, pattern: RegExp, problem: string) =>
  param<string[]>({
    type: 'array',
    items: { type: 'string', pattern: pattern.source, 'x-message': problem },
    default: [],
    description,
  });

/** `page` and `per_page` of v4 lists: an empty page past the end, never an error. */
export const pageParams = (defaultPerPage: number, minPerPage: number, maxPerPage: number) => ({
  page: qInt(1, 1_000_000, 1, 'Page number, from 1'),
  per_page: qInt(minPerPage, maxPerPage, defaultPerPage, `Items per page, ${minPerPage} to ${maxPerPage}`),
});

export interface Paged<T> {
  items: T[];
  info: { page: number; per_page: number; count: number; total_count: number; total_pages: number };
}

export function paginate<T>(all: readonly T[], page: number, perPage: number): Paged<T> {
  const items = all.slice((page - 1) * perPage, page * perPage);
  return {
    items,
    info: {
      page,
      per_page: perPage,
      count: items.length,
      total_count: all.length,
      total_pages: Math.max(1, Math.ceil(all.length / perPage)),
    },
  };
}
