// SQL tokenizer for the SQLi detector. It reads the input as the tail of an SQL statement, either
// as is or as if it were spliced inside a '…' or "…" literal, and feeds one class letter per token
// to a FingerprintStack:
//   s string   n number/literal   w identifier   v @@system variable or value keyword
//   q statement   u union/intersect/except   b order by, group by, limit, having
//   t waitfor delay   k other clause keyword   l and/or/xor/not/&&/||
//   o comparison   a arithmetic/bitwise   f function call
//   ( ) , ; .   c trailing comment without text   m trailing comment with text   x anything else
// Every branch consumes at least one character and never looks back, so a scan is linear.

import { FingerprintStack } from './sqli-fold.ts';
import { FUNCTION_WORDS, LONGEST_WORD, SQL_WORDS } from './sqli-words.ts';

/** 0: as is; 39: inside '…'; 34: inside "…". */
export type QuoteContext = 0 | 39 | 34;

const SINGLE_OPS: Record<string, string> = {
  '(': '(',
  ')': ')',
  ',': ',',
  ';': ';',
  '.': '.',
  '=': 'o',
  '<': 'o',
  '>': 'o',
  '+': 'a',
  '-': 'a',
  '*': 'a',
  '/': 'a',
  '%': 'a',
  '^': 'a',
  '~': 'a',
  '!': 'a',
  '|': 'a',
  '&': 'a',
};

// Two-character operators that change the class of their first character alone.
const PAIR_OPS: Record<string, string> = {
  '||': 'l',
  '&&': 'l',
  '!=': 'o',
  '<>': 'o',
  '<=': 'o',
  '>=': 'o',
  '==': 'o',
  ':=': 'o',
  '::': 'a',
  '<<': 'a',
  '>>': 'a',
};

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 160 || c === 92; // backslash outside strings: noise
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || isDigit(c) || c === 95 || c === 36 || c >= 128;
}

function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

/** Index just past the literal that starts after its opening quote at `from`. */
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
  return n;
}

function skipSpaces(s: string, from: number): number {
  let i = from;
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
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

/** The lower-cased word at `from` (after spaces) and where it ends, for two-word keywords. */
function peekWord(s: string, from: number): [string, number] {
  const start = skipSpaces(s, from);
  const end = skipWord(s, start);
  return end - start > 0 && end - start <= LONGEST_WORD
    ? [s.slice(start, end).toLowerCase(), end]
    : ['', start];
}

const SECOND_WORDS: Record<string, Record<string, string>> = {
  union: { all: 'u', distinct: 'u' },
  order: { by: 'b' },
  group: { by: 'b' },
  waitfor: { delay: 't', time: 't' },
  not: { like: 'o', in: 'o', between: 'o', regexp: 'o', rlike: 'o', ilike: 'o', similar: 'o' },
  sounds: { like: 'o' },
  is: { not: 'o' },
};

const STANDALONE: Record<string, string> = { limit: 'b', having: 'b', order: 'w', group: 'w', waitfor: 'q' };

/** Classifies the word [start, end) and pushes it; returns where scanning resumes. */
function scanWord(s: string, start: number, end: number, out: FingerprintStack): number {
  if (end - start > LONGEST_WORD) {
    out.push('w');
    return end;
  }
  const word = s.slice(start, end).toLowerCase();
  const next = s.charCodeAt(end);
  if (next === 40 && FUNCTION_WORDS.has(word)) {
    out.push('f');
    return end;
  }
  if (next === 39 && (word === 'n' || word === 'x' || word === 'b' || word === 'e' || word === '_utf8')) {
    return end; // N'…', X'…' literal prefixes
  }
  const pairs = SECOND_WORDS[word];
  if (pairs !== undefined) {
    const [second, secondEnd] = peekWord(s, end);
    const merged = pairs[second];
    if (merged !== undefined) {
      out.push(merged);
      return secondEnd;
    }
  }
  const standalone = STANDALONE[word];
  if (standalone !== undefined) {
    out.push(standalone);
    return end;
  }
  const cls = SQL_WORDS.get(word);
  if (cls === 'F') {
    out.push(s.charCodeAt(skipSpaces(s, end)) === 40 ? 'f' : 'w');
  } else {
    out.push(cls ?? 'w');
  }
  return end;
}

/** A comment with body [from, to) that ends at `after`; only a trailing one is a token. */
function scanComment(
  s: string,
  from: number,
  to: number,
  after: number,
  withText: boolean,
  out: FingerprintStack,
): number {
  const resume = skipSpaces(s, after);
  if (resume < s.length) return resume; // mid-input comments are whitespace
  out.push(withText || skipSpaces(s, from) < to ? 'm' : 'c');
  return resume;
}

function lineEnd(s: string, from: number): number {
  const nl = s.indexOf('\n', from);
  return nl === -1 ? s.length : nl;
}

/** Fingerprint of `s` read in the given quoting context. */
export function sqlFingerprint(s: string, quote: QuoteContext): string {
  const out = new FingerprintStack();
  const n = s.length;
  let i = 0;
  if (quote !== 0) {
    out.push('s');
    i = skipString(s, 0, quote);
  }
  while (i < n && !out.full) {
    const c = s.charCodeAt(i);
    if (isSpace(c)) {
      i++;
    } else if (c === 39 || c === 34) {
      out.push('s');
      i = skipString(s, i + 1, c);
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
      const end = skipWord(s, i + (system ? 2 : 1));
      out.push(system ? 'v' : 'w'); // @@version vs @user_variable
      i = end;
    } else {
      i = scanSymbol(s, i, out);
    }
  }
  return out.toString();
}

function scanSymbol(s: string, i: number, out: FingerprintStack): number {
  const c = s.charCodeAt(i);
  const c2 = s.charCodeAt(i + 1);
  if ((c === 45 && c2 === 45) || c === 35) {
    const start = i + (c === 35 ? 1 : 2);
    const end = lineEnd(s, start);
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
  const pair = PAIR_OPS[s.slice(i, i + 2)];
  if (pair !== undefined) {
    const third = s.charCodeAt(i + 2);
    out.push(pair);
    return c === 60 && c2 === 61 && third === 62 ? i + 3 : i + 2; // <=>
  }
  out.push(SINGLE_OPS[s[i]!] ?? 'x');
  return i + 1;
}
