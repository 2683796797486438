// Canonical text of a tree: English operator names, single spaces, parentheses only where the
// structure needs them, strings in the format they were written (quoted or raw). For any tree
// the parser can build, parse(print(tree)) builds the same tree (spans aside).

import type { CompareOp, Expr, IndexKey, ListItem, LogicalOp, Rhs } from './ast.ts';
import { bytesToUtf8 } from './values/bytes.ts';

const OP_TEXT: Record<CompareOp, string> = {
  eq: 'eq',
  ne: 'ne',
  lt: 'lt',
  le: 'le',
  gt: 'gt',
  ge: 'ge',
  contains: 'contains',
  matches: 'matches',
  wildcard: 'wildcard',
  strict_wildcard: 'strict wildcard',
  in: 'in',
  bitwise_and: 'bitwise_and',
};

/** Binding strength: a child binding looser than (or as loose as) its parent gets parentheses. */
const STRENGTH: Record<LogicalOp, number> = { or: 1, xor: 2, and: 3 };

export function print(expr: Expr): string {
  switch (expr.kind) {
    case 'logical': {
      const parts = expr.items.map((item) =>
        item.kind === 'logical' && STRENGTH[item.op] <= STRENGTH[expr.op] ? `(${print(item)})` : print(item),
      );
      return parts.join(` ${expr.op} `);
    }
    case 'not':
      return expr.arg.kind === 'logical' ? `not (${print(expr.arg)})` : `not ${print(expr.arg)}`;
    case 'bool':
      return expr.value ? 'true' : 'false';
    case 'compare':
      return `${print(expr.lhs)} ${OP_TEXT[expr.op]} ${printRhs(expr.rhs, expr.op === 'matches')}`;
    case 'field':
      return expr.name;
    case 'call':
      return `${expr.name}(${expr.args.map(print).join(', ')})`;
    case 'index':
      return `${print(expr.target)}[${printKey(expr.key)}]`;
    case 'literal':
      return printItem(expr.value);
  }
}

function printKey(key: IndexKey): string {
  switch (key.kind) {
    case 'each':
      return '*';
    case 'position':
      return String(key.value);
    case 'key':
      return printString(key.value, key.raw, false);
  }
}

function printRhs(rhs: Rhs, regex: boolean): string {
  switch (rhs.kind) {
    case 'list':
      return `{${rhs.items.map(printItem).join(' ')}}`;
    case 'list_ref':
      return `$${rhs.name}`;
    case 'string':
      return printString(rhs.value, rhs.raw, regex);
    default:
      return printItem(rhs);
  }
}

function printItem(item: ListItem): string {
  switch (item.kind) {
    case 'string':
      return printString(item.value, item.raw, false);
    case 'int':
      return String(item.value);
    case 'ip':
      return item.address;
    case 'int_range':
      return `${item.from}..${item.to}`;
    case 'ip_range':
      return `${item.from}..${item.to}`;
    case 'cidr':
      return `${item.address}/${item.bits}`;
  }
}

/** Prints bytes as a string literal; `raw` ≥ 0 keeps the `r#"…"#` form when it can hold the text. */
export function printString(bytes: string, raw: number, regex: boolean): string {
  const text = bytesToUtf8(bytes);
  if (raw >= 0 && text !== undefined) {
    let hashes = raw;
    while (text.includes(`"${'#'.repeat(hashes)}`)) hashes++;
    if (hashes <= 255) return `r${'#'.repeat(hashes)}"${text}"${'#'.repeat(hashes)}`;
  }
  if (regex && text !== undefined) {
    const quoted = quoteRegex(text);
    if (quoted !== undefined) return quoted;
    let hashes = 0;
    while (text.includes(`"${'#'.repeat(hashes)}`)) hashes++;
    return `r${'#'.repeat(hashes)}"${text}"${'#'.repeat(hashes)}`;
  }
  return quoteBasic(bytes, text);
}

/** Regex escaping: only `"` is escaped; a pattern with an odd backslash before `"` or at the end cannot be quoted. */
function quoteRegex(text: string): string | undefined {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') {
      const next = text[i + 1];
      if (next === undefined || next === '"') return undefined;
      out += ch + next;
      i++;
    } else if (ch === '"') {
      out += '\\"';
    } else {
      out += ch;
    }
  }
  return `${out}"`;
}

function hex(code: number): string {
  return `\\x${code.toString(16).padStart(2, '0')}`;
}

function quoteBasic(bytes: string, text: string | undefined): string {
  let out = '"';
  if (text !== undefined) {
    for (const ch of text) {
      const c = ch.codePointAt(0) ?? 0;
      if (ch === '"' || ch === '\\') out += `\\${ch}`;
      else if (c < 0x20 || c === 0x7f) out += hex(c);
      else if (c >= 0x80 && c <= 0x9f) out += Buffer.from(ch, 'utf8').reduce((s, b) => s + hex(b), '');
      else out += ch;
    }
  } else {
    for (let i = 0; i < bytes.length; i++) {
      const c = bytes.charCodeAt(i);
      const ch = bytes[i] ?? '';
      if (ch === '"' || ch === '\\') out += `\\${ch}`;
      else if (c < 0x20 || c >= 0x7f) out += hex(c);
      else out += ch;
    }
  }
  return `${out}"`;
}
