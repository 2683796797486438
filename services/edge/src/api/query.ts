import type { JsonSchema } from './decode.ts';
import { invalidParameter } from './errors.ts';

/** A query parameter: raw text (or several, when repeated) in, a typed value out. */
export interface QueryParam<T> {
  readonly schema: JsonSchema;
  decode(raw: string | string[] | undefined, name: string): T;
}

export type QuerySpec = Record<string, QueryParam<unknown>>;
export type QueryOf<S extends QuerySpec> = { [K in keyof S]: S[K] extends QueryParam<infer T> ? T : never };

function single(raw: string | string[] | undefined, name: string): string | undefined {
  if (Array.isArray(raw)) {
    if (raw.length > 1)
      throw invalidParameter(name, `Query parameter ${name} is given ${raw.length} times; give it once`);
    return raw[0];
  }
  return raw;
}

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
  return {
    schema: {
      type: 'integer',
      minimum: min,
      maximum: max,
      ...(fallback === undefined ? {} : { default: fallback }),
      description,
    },
    decode(raw: string | string[] | undefined, name: string) {
      const text = single(raw, name);
      if (text === undefined || text === '') return fallback;
      if (!/^-?\d{1,10}$/.test(text) || Number(text) < min || Number(text) > max) {
        throw invalidParameter(
          name,
          `Query parameter ${name} must be an integer from ${min} to ${max}, not "${text}"`,
        );
      }
      return Number(text);
    },
  };
}

/**
 * One of `values`. An empty value counts as absent, unless `empty` says why it can't be: for a parameter
 * whose absence means something else (`waf_migration=` is not a plain Rulesets API write).
 */
export function qEnum<const T extends string>(
  values: readonly T[],
  description: string,
  options: { empty?: string } = {},
): QueryParam<T | undefined> {
  return {
    schema: { type: 'string', enum: [...values], description },
    decode(raw, name) {
      const text = single(raw, name);
      if (text === '' && options.empty !== undefined) {
        throw invalidParameter(name, `Query parameter ${name} is empty: ${options.empty}`);
      }
      if (text === undefined || text === '') return undefined;
      if (!(values as readonly string[]).includes(text)) {
        throw invalidParameter(
          name,
          `Query parameter ${name} must be one of ${values.join(', ')}, not "${text}"`,
        );
      }
      return text as T;
    },
  };
}

export function qString(description: string, max = 1000): QueryParam<string | undefined> {
  return {
    schema: { type: 'string', maxLength: max, description },
    decode(raw, name) {
      const text = single(raw, name);
      if (text !== undefined && text.length > max) {
        throw invalidParameter(name, `Query parameter ${name} must be at most ${max} characters`);
      }
      return text === '' ? undefined : text;
    },
  };
}

/** true/1 or false/0; `invalid` words the refusal of anything else (the default: "must be true or false"). */
export function qBool(
  description: string,
  invalid: (name: string, text: string) => string = (name, text) =>
    `Query parameter ${name} must be true or false, not "${text}"`,
): QueryParam<boolean | undefined> {
  return {
    schema: { type: 'boolean', description },
    decode(raw, name) {
      const text = single(raw, name);
      if (text === undefined || text === '') return undefined;
      if (text === 'true' || text === '1') return true;
      if (text === 'false' || text === '0') return false;
      throw invalidParameter(name, invalid(name, text));
    },
  };
}

/** A repeated parameter (`id=a&id=b`, also `id[]=` and comma-separated) of values checked by `check`. */
export function qList(
  description: string,
  check: (value: string) => string | undefined,
): QueryParam<string[]> {
  return {
    schema: { type: 'array', items: { type: 'string' }, description },
    decode(raw, name) {
      const list = (raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(','));
      for (const v of list) {
        const problem = check(v);
        if (problem) throw invalidParameter(name, `Query parameter ${name}: "${v}" ${problem}`);
      }
      return list;
    },
  };
}

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
