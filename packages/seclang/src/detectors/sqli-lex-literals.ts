// Literal tokens: numbers (1, 1.5e3, 0x1F, 0b01, 1.2f), money ($1,000.00) and dollar-quoted
// strings ($$…$$, $tag$…$tag$), and prefixed strings: N'…', E'…', U&'…', q'[…]', X'1F', B'01'.
// A prefix without its quote is an ordinary word.

import { readWord } from './sqli-lex-words.ts';
import { byteSet, findPair, isWhite, readQuoted, type ScanState, spanOf } from './sqli-scan.ts';
import { TOKEN } from './sqli-token.ts';

const HEX_DIGITS = byteSet('0123456789ABCDEFabcdef');
const BIN_DIGITS = byteSet('01');
const MONEY_CHARS = byteSet('0123456789.,');
const LETTERS = byteSet('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ');

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function digitsFrom(s: string, pos: number): number {
  while (pos < s.length && isDigit(s.charCodeAt(pos))) pos++;
  return pos;
}

/** 0x1F and 0b01 (a bare `0x` is a word); returns -1 when the input is no such literal. */
function readRadixNumber(st: ScanState, start: number): number {
  const s = st.s;
  const marker = s[start + 1];
  const digits =
    marker === 'x' || marker === 'X' ? HEX_DIGITS : marker === 'b' || marker === 'B' ? BIN_DIGITS : null;
  if (digits === null) return -1;
  const len = spanOf(s, start + 2, digits);
  st.assign(len === 0 ? TOKEN.bareword : TOKEN.number, start, 2 + len);
  return start + 2 + len;
}

/** Oracle's 1.5f / 1.5d suffix, taken when a space, ';', 'u' or the end follows it. */
function suffixEnd(s: string, pos: number): number {
  const c = s[pos];
  if (c !== 'd' && c !== 'D' && c !== 'f' && c !== 'F') return pos;
  if (pos + 1 === s.length) return pos + 1;
  const next = s.charCodeAt(pos + 1);
  if (isWhite(next) || next === 59 || next === 117 || next === 85) return pos + 1;
  return pos;
}

export function readNumber(st: ScanState): number {
  const s = st.s;
  const start = st.pos;
  if (s[start] === '0' && start + 1 < st.n) {
    const end = readRadixNumber(st, start);
    if (end >= 0) return end;
  }
  let pos = digitsFrom(s, start);
  if (s[pos] === '.') {
    pos = digitsFrom(s, pos + 1);
    if (pos - start === 1) {
      st.assignChar(TOKEN.dot, start);
      return pos;
    }
  }
  let exponentMark = false;
  let exponentDigits = false;
  if (s[pos] === 'e' || s[pos] === 'E') {
    exponentMark = true;
    pos++;
    if (s[pos] === '+' || s[pos] === '-') pos++;
    const after = digitsFrom(s, pos);
    exponentDigits = after > pos;
    pos = after;
  }
  pos = suffixEnd(s, pos);
  // "1.5e" with no exponent digits is a word
  st.assign(exponentMark && !exponentDigits ? TOKEN.bareword : TOKEN.number, start, pos - start);
  return pos;
}

/** $$…$$ (unterminated: to the end). */
function readDollarString(st: ScanState, bodyStart: number, close: number): number {
  const t = st.tok;
  t.strOpen = '$';
  if (close < 0) {
    st.assign(TOKEN.string, bodyStart, st.n - bodyStart);
    t.strClose = '';
    return st.n;
  }
  st.assign(TOKEN.string, bodyStart, close - bodyStart);
  t.strClose = '$';
  return -1;
}

/** $tag$…$tag$ (unterminated: to the end). */
function readTaggedString(st: ScanState, start: number, letters: number): number {
  const s = st.s;
  const tag = s.slice(start, start + letters + 2);
  const bodyStart = start + letters + 2;
  let found = -1;
  // each candidate is a '$'; a comparison stops at the next '$', so the search stays linear
  for (let k = s.indexOf('$', bodyStart); k >= 0; k = s.indexOf('$', k + 1)) {
    if (s.startsWith(tag, k)) {
      found = k;
      break;
    }
  }
  if (found < 0) return readDollarString(st, bodyStart, -1);
  readDollarString(st, bodyStart, found);
  return found + tag.length;
}

export function readMoney(st: ScanState): number {
  const s = st.s;
  const start = st.pos;
  if (start + 1 === st.n) {
    st.assignChar(TOKEN.bareword, start);
    return st.n;
  }
  const numeric = spanOf(s, start + 1, MONEY_CHARS);
  if (numeric === 1 && s[start + 1] === '.') return readWord(st);
  if (numeric > 0) {
    st.assign(TOKEN.number, start, 1 + numeric);
    return start + 1 + numeric;
  }
  if (s[start + 1] === '$') {
    const close = findPair(s, start + 2, st.n, 36, 36);
    const end = readDollarString(st, start + 2, close);
    return end < 0 ? close + 2 : end;
  }
  const letters = spanOf(s, start + 1, LETTERS);
  if (letters === 0 || start + letters + 1 === st.n || s[start + letters + 1] !== '$') {
    st.assignChar(TOKEN.bareword, start);
    return start + 1;
  }
  return readTaggedString(st, start, letters);
}

/** N'…' and E'…' (n/e alone is a word). */
export function readPrefixedString(st: ScanState): number {
  const start = st.pos;
  if (start + 2 >= st.n || st.s[start + 1] !== "'") return readWord(st);
  return readQuoted(st, start, "'", 2);
}

/** U&'…' */
export function readUnicodeString(st: ScanState): number {
  const s = st.s;
  const start = st.pos;
  if (!(start + 2 < st.n && s[start + 1] === '&' && s[start + 2] === "'")) return readWord(st);
  const next = readQuoted(st, start + 2, "'", 1);
  st.tok.strOpen = 'u';
  if (st.tok.strClose === "'") st.tok.strClose = 'u';
  return next;
}

const CLOSERS: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };

/** Oracle q'X…X' (X any printable ASCII character; (, [, {, < close with their pair). */
function readOracleString(st: ScanState, offset: number): number {
  const s = st.s;
  const pos = st.pos + offset;
  const q = s[pos];
  if (pos >= st.n || (q !== 'q' && q !== 'Q') || pos + 2 >= st.n || s[pos + 1] !== "'") return readWord(st);
  const open = s.charCodeAt(pos + 2);
  if (open < 33 || open > 127) return readWord(st);
  const closer = CLOSERS[s[pos + 2]!] ?? s[pos + 2]!;
  const end = findPair(s, pos + 3, st.n, closer.charCodeAt(0), 39);
  const t = st.tok;
  t.strOpen = 'q';
  if (end < 0) {
    st.assign(TOKEN.string, pos + 3, st.n - pos - 3);
    t.strClose = '';
    return st.n;
  }
  st.assign(TOKEN.string, pos + 3, end - pos - 3);
  t.strClose = 'q';
  return end + 2;
}

export function readQString(st: ScanState): number {
  return readOracleString(st, 0);
}

/** N'…' or Oracle nq'…'. */
export function readNString(st: ScanState): number {
  if (st.pos + 2 < st.n && st.s[st.pos + 1] === "'") return readPrefixedString(st);
  return readOracleString(st, 1);
}

function readDigitString(st: ScanState, digits: Uint8Array): number {
  const s = st.s;
  const start = st.pos;
  if (start + 2 >= st.n || s[start + 1] !== "'") return readWord(st);
  const len = spanOf(s, start + 2, digits);
  if (start + 2 + len >= st.n || s[start + 2 + len] !== "'") return readWord(st);
  st.assign(TOKEN.number, start, len + 3);
  return start + len + 3;
}

/** B'0101' */
export function readBinaryString(st: ScanState): number {
  return readDigitString(st, BIN_DIGITS);
}

/** X'1F' */
export function readHexString(st: ScanState): number {
  return readDigitString(st, HEX_DIGITS);
}
