// A token of the SQLi tokenizer. Its type is one letter, the letters libinjection's fingerprint
// list is written in; a fingerprint is the folded tokens' letters (`1&1`, `s&sos`).

/** Token type letters. */
export const TOKEN = {
  none: '',
  keyword: 'k',
  union: 'U',
  group: 'B',
  expression: 'E',
  sqlType: 't',
  function: 'f',
  bareword: 'n',
  number: '1',
  variable: 'v',
  string: 's',
  operator: 'o',
  logicOperator: '&',
  comment: 'c',
  collate: 'A',
  leftParens: '(',
  rightParens: ')',
  leftBrace: '{',
  rightBrace: '}',
  dot: '.',
  comma: ',',
  colon: ':',
  semicolon: ';',
  tsql: 'T',
  unknown: '?',
  evil: 'X',
  backslash: '\\',
} as const;

/** Longest value kept in a token (libinjection keeps 31 bytes); lookups see only that much. */
export const TOKEN_VALUE_MAX = 31;

export interface SqlToken {
  type: string;
  /** The token's text, at most TOKEN_VALUE_MAX characters (a string's body without its quotes). */
  val: string;
  /** Opening and closing delimiters of a string-like token, '' when absent. */
  strOpen: string;
  strClose: string;
}

export function newToken(): SqlToken {
  return { type: '', val: '', strOpen: '', strClose: '' };
}

export function clearToken(t: SqlToken): void {
  t.type = '';
  t.val = '';
  t.strOpen = '';
  t.strClose = '';
}

export function copyToken(to: SqlToken, from: SqlToken): void {
  to.type = from.type;
  to.val = from.val;
  to.strOpen = from.strOpen;
  to.strClose = from.strClose;
}

/** ASCII-only upper case, as the keyword table is matched (bytes ≥ 0x80 are left alone). */
export function upperAscii(s: string): string {
  return /[a-z]/.test(s) ? s.replace(/[a-z]+/g, (m) => m.toUpperCase()) : s;
}

function valIs(t: SqlToken, upper: string): boolean {
  return t.val.length === upper.length && upperAscii(t.val) === upper;
}

/** + - ! ~ !! NOT: an operator that can stand before a value. */
export function isUnaryOperator(t: SqlToken): boolean {
  if (t.type !== TOKEN.operator) return false;
  const v = t.val;
  switch (v.length) {
    case 1:
      return v === '+' || v === '-' || v === '!' || v === '~';
    case 2:
      return v === '!!';
    case 3:
      return upperAscii(v) === 'NOT';
    default:
      return false;
  }
}

export function isArithmeticOperator(t: SqlToken): boolean {
  const v = t.val;
  return t.type === TOKEN.operator && v.length === 1 && '*/-+%'.includes(v);
}

/** Whether the token's value is the given upper-case word, in any case. */
export function tokenIs(t: SqlToken, ...words: string[]): boolean {
  for (const w of words) if (valIs(t, w)) return true;
  return false;
}
