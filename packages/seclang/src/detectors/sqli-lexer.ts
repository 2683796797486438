// The SQLi tokenizer: one call to nextToken reads the next token into st.tok. Each character
// class has a reader; every reader consumes at least one character and the readers that scan
// ahead (strings, comments) consume what they scanned, so a whole pass is linear in the input.

import { lookupWord } from './sqli-keywords.ts';
import {
  readBinaryString,
  readHexString,
  readMoney,
  readNString,
  readNumber,
  readPrefixedString,
  readQString,
  readUnicodeString,
} from './sqli-lex-literals.ts';
import { readBracketWord, readTick, readVariable, readWord } from './sqli-lex-words.ts';
import { findPair, isWhite, readQuoted, type ScanState } from './sqli-scan.ts';
import { clearToken, TOKEN } from './sqli-token.ts';

type Reader = (st: ScanState) => number;

const skipWhite: Reader = (st) => st.pos + 1;

const readOperator1: Reader = (st) => {
  st.assignChar(TOKEN.operator, st.pos);
  return st.pos + 1;
};

/** ? and ]: a character of no meaning. */
const readOther: Reader = (st) => {
  st.assignChar(TOKEN.unknown, st.pos);
  return st.pos + 1;
};

/** ( ) , ; { }: a token whose type is the character itself. */
const readPunctuation: Reader = (st) => {
  st.assignChar(st.s[st.pos]!, st.pos);
  return st.pos + 1;
};

/** A comment to the end of the line; the newline is consumed with it. */
function readLineComment(st: ScanState): number {
  const start = st.pos;
  const nl = st.s.indexOf('\n', start);
  const end = nl < 0 ? st.n : nl;
  st.assign(TOKEN.comment, start, end - start);
  return nl < 0 ? st.n : nl + 1;
}

/** # is a comment for MySQL and an operator otherwise. */
const readHash: Reader = (st) => {
  st.hashSeen++;
  if (!st.mysql) return readOperator1(st);
  return readLineComment(st);
};

/** `-- ` and a final `--` are comments; `--x` is one in ANSI SQL, two minus signs in MySQL. */
const readDash: Reader = (st) => {
  const s = st.s;
  const pos = st.pos;
  if (s[pos + 1] === '-') {
    if (pos + 2 === st.n || (pos + 2 < st.n && isWhite(s.charCodeAt(pos + 2)))) return readLineComment(st);
    if (!st.mysql) {
      st.dashCommentNoSpace++;
      return readLineComment(st);
    }
  }
  return readOperator1(st);
};

/** /* comment *\/ (to the end if unclosed); a nested /* or MySQL's /*! makes it evil (X). */
const readSlash: Reader = (st) => {
  const s = st.s;
  const pos = st.pos;
  if (s[pos + 1] !== '*') return readOperator1(st);
  const close = findPair(s, pos + 2, st.n, 42, 47);
  const len = close < 0 ? st.n - pos : close + 2 - pos;
  const nested = close >= 0 && findPair(s, pos + 2, close - 1, 47, 42) >= 0;
  const mysqlConditional = pos + 2 < st.n && s[pos + 2] === '!';
  st.assign(nested || mysqlConditional ? TOKEN.evil : TOKEN.comment, pos, len);
  return pos + len;
};

/** \N is MySQL's NULL; any other backslash is a token of its own. */
const readBackslash: Reader = (st) => {
  if (st.s[st.pos + 1] === 'N') {
    st.assign(TOKEN.number, st.pos, 2);
    return st.pos + 2;
  }
  st.assignChar(TOKEN.backslash, st.pos);
  return st.pos + 1;
};

/** <=>, a two-character operator from the table (!=, ||, ::…), a lone ':' or a one-character operator. */
const readOperator2: Reader = (st) => {
  const s = st.s;
  const pos = st.pos;
  if (pos + 1 >= st.n) return readOperator1(st);
  if (s.startsWith('<=>', pos)) {
    st.assign(TOKEN.operator, pos, 3);
    return pos + 3;
  }
  const type = lookupWord(s.slice(pos, pos + 2));
  if (type !== '') {
    st.assign(type, pos, 2);
    return pos + 2;
  }
  if (s[pos] === ':') {
    st.assignChar(TOKEN.colon, pos);
    return pos + 1;
  }
  return readOperator1(st);
};

const readString: Reader = (st) => readQuoted(st, st.pos, st.s[st.pos]!, 1);

function readerTable(): Reader[] {
  const table: Reader[] = new Array(256).fill(readWord);
  for (let c = 0; c <= 32; c++) table[c] = skipWhite;
  table[127] = skipWhite;
  table[160] = skipWhite;
  const byChar: Array<[string, Reader]> = [
    ['!&*:<=>|', readOperator2],
    ['%+^~', readOperator1],
    ['"\'', readString],
    ['#', readHash],
    ['$', readMoney],
    ['(),;{}', readPunctuation],
    ['-', readDash],
    ['.0123456789', readNumber],
    ['/', readSlash],
    ['?]', readOther],
    ['@', readVariable],
    ['[', readBracketWord],
    ['\\', readBackslash],
    ['`', readTick],
    ['Bb', readBinaryString],
    ['Ee', readPrefixedString],
    ['Nn', readNString],
    ['Qq', readQString],
    ['Uu', readUnicodeString],
    ['Xx', readHexString],
  ];
  for (const [chars, reader] of byChar) {
    for (const ch of chars) table[ch.charCodeAt(0)] = reader;
  }
  return table;
}

const READERS = readerTable();

/** Reads the next token into st.tok; false at the end of the input. */
export function nextToken(st: ScanState): boolean {
  const s = st.s;
  const n = s.length;
  if (n === 0) return false;
  const tok = st.tok;
  clearToken(tok);
  if (st.pos === 0 && st.quote !== '') {
    // read as if the input followed an opening quote
    st.pos = readQuoted(st, 0, st.quote, 0);
    st.tokenCount++;
    return true;
  }
  while (st.pos < n) {
    const c = s.charCodeAt(st.pos);
    st.pos = (c < 256 ? READERS[c]! : readWord)(st);
    if (tok.type !== '') {
      st.tokenCount++;
      return true;
    }
  }
  return false;
}
