// SQL tokenizer for the SQLi detector. It reads the input as the tail of an SQL statement, either
// as is or as if spliced inside a '…' or "…" literal, and feeds one class letter per token
// to a FingerprintStack:
//   s string   n number/literal   w identifier   v @@system variable or value keyword
//   q statement   u union/intersect/except   b order by, group by, procedure analyse   g having, limit
//   t waitfor delay   e into outfile/dumpfile   k other clause keyword   l and/or/xor/&&/||
//   o comparison symbol   i comparison word (like, in, is…)   a arithmetic/bitwise/not
//   f function call   ( ) , ; .   c trailing --/* comment without text, m with text, h # comment
//   x anything else, and an unterminated literal of the other quote inside a quoted reading
// Every branch consumes at least one character and never looks back, so a scan is linear.

import { FingerprintStack } from './sqli-fold.ts';
import { COMPOUND_WORDS, FUNCTION_WORDS, mayBeListed, SQL_WORDS } from './sqli-words.ts';

/** 0: as is; 39: inside '…'; 34: inside "…". */
export type QuoteContext = 0 | 39 | 34;

const SINGLE_OPS = new Map<string, string>([
  ['(', '('],
  [')', ')'],
  [',', ','],
  [';', ';'],
  ['.', '.'],
  ['=', 'o'],
  ['<', 'o'],
  ['>', 'o'],
  ['+', 'a'],
  ['-', 'a'],
  ['*', 'a'],
  ['/', 'a'],
  ['%', 'a'],
  ['^', 'a'],
  ['~', 'a'],
  ['!', 'a'],
  ['|', 'a'],
  ['&', 'a'],
]);

/** Class of a two-character operator, or undefined. */
function pairClass(c: number, c2: number): string | undefined {
  switch (c) {
    case 124: // ||
    case 38: // &&
      return c2 === c ? 'l' : undefined;
    case 33: // !=
      return c2 === 61 ? 'o' : undefined;
    case 60: // <> <= <<
      return c2 === 62 || c2 === 61 ? 'o' : c2 === 60 ? 'a' : undefined;
    case 62: // >= >>
      return c2 === 61 ? 'o' : c2 === 62 ? 'a' : undefined;
    case 61: // ==
      return c2 === 61 ? 'o' : undefined;
    case 58: // := ::
      return c2 === 61 ? 'o' : c2 === 58 ? 'a' : undefined;
    default:
      return undefined;
  }
}

// N'…', X'…', B'…', E'…', _utf8'…': literal prefixes, dropped (also listed in sqli-words.ts).
const LITERAL_PREFIXES: ReadonlySet<string> = new Set(['n', 'x', 'b', 'e', '_utf8', '_latin1']);

// Character kinds by byte (one table lookup per character in the hot loops).
const SPACE = 1;
const DIGIT = 2;
const WORD = 4;
const KIND = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  // backslash outside strings: noise
  if (c === 32 || (c >= 9 && c <= 13) || c === 160 || c === 92) KIND[c]! |= SPACE;
  if (c >= 48 && c <= 57) KIND[c]! |= DIGIT | WORD;
  if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || c >= 128) KIND[c]! |= WORD;
}

function isSpace(c: number): boolean {
  return c < 256 && (KIND[c]! & SPACE) !== 0;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isWordChar(c: number): boolean {
  return c >= 256 || (KIND[c]! & WORD) !== 0;
}

function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

/** Index just past the literal whose body starts at `from`; the negated length if unterminated. */
function skipString(s: string, from: number, quote: number): number {
  let i = from;
  const n = s.length;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === 92) {
      i += 2; // MySQL backslash escape
    } else if (c === quote) {
      if (s.charCodeAt(i + 1) === quote)
        i += 2; // doubled quote stays inside
      else return i + 1;
    } else {
      i++;
    }
  }
  return -n;
}

function skipSpaces(s: string, from: number): number {
  let i = from;
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i;
}

/** Skips spaces and closed block comments, which may separate two-word keywords. */
function skipGap(s: string, from: number): number {
  let i = skipSpaces(s, from);
  while (s.charCodeAt(i) === 47 && s.charCodeAt(i + 1) === 42 && s.charCodeAt(i + 2) !== 33) {
    const close = s.indexOf('*/', i + 2);
    if (close === -1) return i;
    i = skipSpaces(s, close + 2);
  }
  return i;
}

function skipNumber(s: string, from: number): number {
  const n = s.length;
  let i = from;
  const next = s.charCodeAt(i + 1) | 32;
  if (s.charCodeAt(i) === 48 && (next === 120 || next === 98)) {
    i += 2; // 0x… or 0b…
    while (i < n && isHexDigit(s.charCodeAt(i))) i++;
    return i;
  }
  while (i < n && isDigit(s.charCodeAt(i))) i++;
  if (s.charCodeAt(i) === 46) {
    i++;
    while (i < n && isDigit(s.charCodeAt(i))) i++;
  }
  if ((s.charCodeAt(i) | 32) === 101) {
    let j = i + 1;
    const sign = s.charCodeAt(j);
    if (sign === 43 || sign === 45) j++;
    if (isDigit(s.charCodeAt(j))) {
      i = j;
      while (i < n && isDigit(s.charCodeAt(i))) i++;
    }
  }
  return i;
}

function skipWord(s: string, from: number): number {
  let i = from;
  while (i < s.length && isWordChar(s.charCodeAt(i))) i++;
  return i;
}

/** Classifies the word [start, end) and pushes it; returns where scanning resumes. */
function scanWord(s: string, start: number, end: number, out: FingerprintStack): number {
  if (!mayBeListed(s, start, end)) {
    out.push('w');
    return end;
  }
  const word = s.slice(start, end).toLowerCase();
  const next = s.charCodeAt(end);
  if (next === 40 && FUNCTION_WORDS.has(word)) {
    out.push('f');
    return end;
  }
  if (next === 39 && LITERAL_PREFIXES.has(word)) return end;
  const compounds = COMPOUND_WORDS.get(word);
  if (compounds !== undefined) {
    const secondStart = skipGap(s, end);
    const secondEnd = skipWord(s, secondStart);
    const merged = compounds.get(s.slice(secondStart, secondEnd).toLowerCase());
    if (merged !== undefined) {
      out.push(merged);
      return secondEnd;
    }
  }
  const cls = SQL_WORDS.get(word);
  if (cls === 'F') out.push(s.charCodeAt(skipSpaces(s, end)) === 40 ? 'f' : 'w');
  else out.push(cls ?? 'w');
  return end;
}

/** A comment with body [from, to) that ends at `after`; only a trailing one is a token. */
function scanComment(
  s: string,
  from: number,
  to: number,
  after: number,
  hash: boolean,
  out: FingerprintStack,
) {
  const resume = skipSpaces(s, after);
  if (resume < s.length) return resume; // mid-input comments are whitespace
  out.push(hash ? 'h' : skipSpaces(s, from) < to ? 'm' : 'c');
  return resume;
}

function scanSymbol(s: string, i: number, out: FingerprintStack): number {
  const c = s.charCodeAt(i);
  const c2 = s.charCodeAt(i + 1);
  // `--` starts a comment when a space, a control character or the end follows (MySQL's rule);
  // `--x` is two minus signs.
  if ((c === 45 && c2 === 45 && !(s.charCodeAt(i + 2) > 32)) || c === 35) {
    const start = i + (c === 35 ? 1 : 2);
    const nl = s.indexOf('\n', start);
    const end = nl === -1 ? s.length : nl;
    return scanComment(s, start, end, end, c === 35, out);
  }
  if (c === 47 && c2 === 42) {
    if (s.charCodeAt(i + 2) === 33) {
      let j = i + 3; // MySQL /*!50000 … */: the body is code
      while (j < s.length && isDigit(s.charCodeAt(j))) j++;
      return j;
    }
    const close = s.indexOf('*/', i + 2);
    const to = close === -1 ? s.length : close;
    return scanComment(s, i + 2, to, close === -1 ? to : close + 2, false, out);
  }
  if (c === 42 && c2 === 47) return i + 2; // end of /*! … */
  const pair = pairClass(c, c2);
  if (pair !== undefined) {
    out.push(pair);
    return c === 60 && c2 === 61 && s.charCodeAt(i + 2) === 62 ? i + 3 : i + 2; // <=>
  }
  out.push(SINGLE_OPS.get(s[i]!) ?? 'x');
  return i + 1;
}

/** Fingerprint of `s` read in the given quoting context. */
const STACK = new FingerprintStack();

export function sqlFingerprint(s: string, quote: QuoteContext): string {
  const out = STACK; // one at a time: the scan is synchronous and not reentrant
  out.reset();
  const n = s.length;
  let i = 0;
  if (quote !== 0) {
    out.push('s');
    i = Math.abs(skipString(s, 0, quote));
  }
  while (i < n && !out.full) {
    const c = s.charCodeAt(i);
    if (isSpace(c)) {
      i++;
    } else if (c === 39 || c === 34) {
      const end = skipString(s, i + 1, c);
      // Inside a quoted reading, an unterminated literal of the other quote cannot be closed by
      // the application's quote: that reading is broken SQL.
      out.push(end < 0 && quote !== 0 && c !== quote ? 'x' : 's');
      i = Math.abs(end);
    } else if (c === 96) {
      out.push('w'); // `identifier`
      const close = s.indexOf('`', i + 1);
      i = close === -1 ? n : close + 1;
    } else if (isDigit(c) || (c === 46 && isDigit(s.charCodeAt(i + 1)))) {
      out.push('n');
      i = skipNumber(s, i);
    } else if (isWordChar(c)) {
      i = scanWord(s, i, skipWord(s, i), out);
    } else if (c === 64) {
      const system = s.charCodeAt(i + 1) === 64;
      out.push(system ? 'v' : 'w'); // @@version vs @user_variable
      i = skipWord(s, i + (system ? 2 : 1));
    } else {
      i = scanSymbol(s, i, out);
    }
  }
  return out.toString();
}
