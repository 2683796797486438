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

/** Whether every character is ASCII. */
export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 128) return false;
  }
  return true;
}

/**
 * `word` in upper case if it can equal an ASCII entry of a table, else ''. The table is matched
 * byte by byte with only a-z folded; toUpperCase is native and agrees for ASCII, and a word with
 * any other character (ß → SS, ı → I) can match no entry.
 */
export function upperForLookup(word: string): string {
  const upper = word.toUpperCase();
  return upper.length === word.length && isAscii(upper) && isAscii(word) ? upper : '';
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
      return upperForLookup(v) === 'NOT';
    default:
      return false;
  }
}

export function isArithmeticOperator(t: SqlToken): boolean {
  const v = t.val;
  return t.type === TOKEN.operator && v.length === 1 && '*/-+%'.includes(v);
}

/** Whether the token's value, in any ASCII case, is one of the upper-case `words`. */
export function tokenIs(t: SqlToken, words: ReadonlySet<string>): boolean {
  return t.val.length <= 17 && words.has(upperForLookup(t.val));
}
