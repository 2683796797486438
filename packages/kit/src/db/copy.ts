// COPY's text format (https://www.postgresql.org/docs/current/sql-copy.html, "Text Format"): one line a row,
// fields separated by tabs, `\N` for null, and backslash, tab, newline and carriage return escaped.

const NEEDS_ESCAPE = /[\\\t\n\r]/;
const ESCAPED = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** `COPY "table" ("a", "b") FROM source` with the names quoted. */
export function copyStatement(table: string, columns: readonly string[], source: string): string {
  return `COPY ${quoted(table)} (${columns.map(quoted).join(', ')}) FROM ${source}`;
}

function quoted(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** One field of a row: null as `\N`, text escaped; a non-finite number is null (as JSON would have it). */
export function copyField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'string')
    return NEEDS_ESCAPE.test(value) ? value.replace(ESCAPED, (c) => ESCAPES[c]!) : value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '\\N';
  return value ? 't' : 'f';
}

/** An array field (text[] and the like): `{"a","b"}`, each element quoted, as a COPY field. */
export function copyArrayField(values: readonly string[] | null | undefined): string {
  if (values === null || values === undefined) return '\\N';
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    literal += `${i === 0 ? '' : ','}"${v.includes('"') || v.includes('\\') ? v.replace(/["\\]/g, '\\$&') : v}"`;
  }
  return copyField(`${literal}}`);
}
