import { GraphQLError } from 'graphql';
import { type DatasetField, fieldByName, OPERATORS, type Operator } from './fields.ts';

/** The most conditions one filter may hold (AND/OR included), so a filter's SQL stays small. */
export const MAX_FILTER_TERMS = 100;

export interface SqlWhere {
  clauses: string[];
  params: unknown[];
}

const OP_SQL: Record<Exclude<Operator, '' | '_in' | '_notin'>, string> = {
  _neq: '<>',
  _gt: '>',
  _geq: '>=',
  _lt: '<',
  _leq: '<=',
  _like: 'LIKE',
  _notlike: 'NOT LIKE',
};

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** A Time argument as a Date; the error names the argument. */
export function timeValue(key: string, value: unknown): Date {
  const d = typeof value === 'string' && RFC3339.test(value) ? new Date(value) : undefined;
  if (!d || Number.isNaN(d.getTime())) {
    throw new GraphQLError(
      `filter.${key}: ${JSON.stringify(value)} is not an RFC 3339 time (e.g. 2026-01-01T00:00:00Z)`,
    );
  }
  return d;
}

function splitKey(key: string): { field: DatasetField; op: Operator } | undefined {
  for (const op of [...OPERATORS].sort((a, b) => b.length - a.length)) {
    if (op !== '' && !key.endsWith(op)) continue;
    const field = fieldByName.get(op === '' ? key : key.slice(0, -op.length));
    if (field) return { field, op };
  }
  return undefined;
}

/**
 * A dataset filter (already checked against the schema by GraphQL) as SQL conditions with numbered
 * parameters after `params`. AND and OR nest; every value is a parameter, every column comes from the
 * field table.
 */
export function filterToSql(filter: Record<string, unknown> | undefined, where: SqlWhere): void {
  let terms = 0;
  const param = (value: unknown) => {
    where.params.push(value);
    return `$${where.params.length}`;
  };
  const convert = (f: Record<string, unknown>): string[] => {
    const out: string[] = [];
    for (const [key, value] of Object.entries(f)) {
      if (value === undefined || value === null) continue;
      if (++terms > MAX_FILTER_TERMS) {
        throw new GraphQLError(`the filter has more than ${MAX_FILTER_TERMS} conditions; split the query`);
      }
      if (key === 'AND' || key === 'OR') {
        const parts = (value as Record<string, unknown>[]).map((sub) => {
          const inner = convert(sub);
          return inner.length === 0 ? 'TRUE' : `(${inner.join(' AND ')})`;
        });
        if (parts.length > 0) out.push(`(${parts.join(key === 'AND' ? ' AND ' : ' OR ')})`);
        continue;
      }
      const split = splitKey(key);
      if (!split) throw new GraphQLError(`filter.${key} is not a known field`);
      const { field, op } = split;
      const cast = (v: unknown) => (field.type === 'Time' ? timeValue(key, v) : v);
      if (op === '_in' || op === '_notin') {
        const list = (value as unknown[]).map(cast);
        out.push(`${op === '_in' ? '' : 'NOT '}(${field.sql}) = ANY(${param(list)}${sqlCast(field)}[])`);
      } else if (op === '') {
        out.push(`(${field.sql}) = ${param(cast(value))}${sqlCast(field)}`);
      } else {
        out.push(`(${field.sql}) ${OP_SQL[op]} ${param(cast(value))}${sqlCast(field)}`);
      }
    }
    return out;
  };
  if (filter) where.clauses.push(...convert(filter));
}

const sqlCast = (f: DatasetField) =>
  f.type === 'Time' ? '::timestamptz' : f.type === 'uint16' || f.type === 'uint32' ? '::int' : '::text';

/** The earliest time the filter asks for, if it bounds datetime from below at its top level. */
export function earliestAsked(
  filter: Record<string, unknown> | undefined,
): { key: string; at: Date } | undefined {
  if (!filter) return undefined;
  let found: { key: string; at: Date } | undefined;
  for (const key of ['datetime_geq', 'datetime_gt', 'datetime']) {
    if (typeof filter[key] === 'string') {
      const at = timeValue(key, filter[key]);
      if (!found || at < found.at) found = { key, at };
    }
  }
  const all = [filter.AND, filter.OR].flatMap((x) => (Array.isArray(x) ? x : []));
  for (const sub of all) {
    const inner = earliestAsked(sub as Record<string, unknown>);
    if (inner && (!found || inner.at < found.at)) found = inner;
  }
  return found;
}
