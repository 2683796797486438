/**
 * A small HCL writer for Terraform provider v5 attribute syntax (objects and lists of objects are
 * attributes: `rules = [{ … }]`), laid out as `terraform fmt` would: two-space indents, `=` aligned
 * within a run of single-line attributes, keys sorted.
 */
export type HclValue = string | number | boolean | null | HclValue[] | { [key: string]: HclValue };

const IDENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** A quoted HCL string: `"`, `\` and control characters escaped, `${` and `%{` not read as templates. */
export function hclString(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  // A function replacement: in a replacement string, "$$" would mean one "$".
  return `"${out.replaceAll('${', () => '$${').replaceAll('%{', () => '%%{')}"`;
}

const key = (k: string) => (IDENT.test(k) ? k : hclString(k));

const isObject = (v: HclValue): v is { [key: string]: HclValue } =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function scalar(value: HclValue): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'string') return hclString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => scalar(v) !== undefined && !Array.isArray(v))) {
    return `[${value.map((v) => scalar(v)).join(', ')}]`;
  }
  return undefined;
}

/** The body of an object: one attribute per line, `=` aligned across consecutive one-line values. */
export function hclBody(object: { [key: string]: HclValue }, indent: string): string[] {
  const lines: string[] = [];
  const entries = Object.entries(object).sort(([a], [b]) => a.localeCompare(b));
  let run: [string, string][] = [];
  const flush = () => {
    const width = Math.max(0, ...run.map(([k]) => k.length));
    for (const [k, v] of run) lines.push(`${indent}${k.padEnd(width)} = ${v}`);
    run = [];
  };
  for (const [k, v] of entries) {
    const one = scalar(v);
    if (one !== undefined) {
      run.push([key(k), one]);
      continue;
    }
    flush();
    lines.push(`${indent}${key(k)} = ${hclValue(v, indent)}`);
  }
  flush();
  return lines;
}

/** A value that spans lines (an object, or a list with objects in it). */
function hclValue(value: HclValue, indent: string): string {
  const one = scalar(value);
  if (one !== undefined) return one;
  const inner = `${indent}  `;
  if (isObject(value)) return ['{', ...hclBody(value, inner), `${indent}}`].join('\n');
  const items = (value as HclValue[]).map((v) =>
    isObject(v) ? ['{', ...hclBody(v, `${inner}  `), `${inner}}`].join('\n') : hclValue(v, inner),
  );
  return ['[', ...items.map((item) => `${inner}${item},`), `${indent}]`].join('\n');
}
