// Word-like tokens: bare words and keywords, `backtick` names, [bracket] names, @variables.

import { foldHashStep, lookupWord, mayBeKeyword } from './sqli-keywords.ts';
import { byteSet, readQuoted, type ScanState, spanUntil } from './sqli-scan.ts';
import { clearToken, TOKEN, TOKEN_VALUE_MAX } from './sqli-token.ts';

const WORD_END = byteSet(' []{}<>:\\?=@!#~+-*/&|^%(),\';\t\n\v\f\r"\u00a0');
const VARIABLE_END = byteSet(" <>:\\?=@!#~+-*/&|^%(),';\t\n\v\f\r'`\"");

/** A word up to the next delimiter; its type comes from the keyword table (bareword if absent). */
export function readWord(st: ScanState): number {
  const s = st.s;
  const start = st.pos;
  const len = spanUntil(s, start, WORD_END);
  st.assign(TOKEN.bareword, start, len);
  // One pass over the kept characters: `select.1` or `select`x`` (a keyword before a dot or a
  // backtick ends the word there) and the word's hash, which rules out most table lookups.
  const kept = Math.min(len, TOKEN_VALUE_MAX);
  let hash = 0;
  for (let i = 0; i < kept; i++) {
    const c = s.charCodeAt(start + i);
    if ((c === 46 || c === 96) && mayBeKeyword(hash)) {
      const type = lookupWord(s.slice(start, start + i));
      if (type !== '' && type !== TOKEN.bareword) {
        clearToken(st.tok);
        st.assign(type, start, i);
        return start + i;
      }
    }
    hash = foldHashStep(hash, c);
  }
  if (len <= TOKEN_VALUE_MAX && mayBeKeyword(hash)) st.tok.type = lookupWord(st.tok.val) || TOKEN.bareword;
  return start + len;
}

/** MySQL `name`: a bare word, or a function when the name is one. */
export function readTick(st: ScanState): number {
  const next = readQuoted(st, st.pos, '`', 1);
  st.tok.type = lookupWord(st.tok.val) === TOKEN.function ? TOKEN.function : TOKEN.bareword;
  return next;
}

/** SQL Server [name], up to and including the ']' (or to the end). */
export function readBracketWord(st: ScanState): number {
  const start = st.pos;
  const close = st.s.indexOf(']', start);
  const end = close < 0 ? st.n : close + 1;
  st.assign(TOKEN.bareword, start, end - start);
  return end;
}

/** @name, @@name, @`name`, @'name', @"name"; a lone @ is an empty variable. */
export function readVariable(st: ScanState): number {
  const s = st.s;
  let pos = st.pos + 1;
  if (pos < st.n && s[pos] === '@') pos++;
  if (pos < st.n) {
    const c = s[pos];
    if (c === '`') {
      st.pos = pos;
      const next = readTick(st);
      st.tok.type = TOKEN.variable;
      return next;
    }
    if (c === "'" || c === '"') {
      const next = readQuoted(st, pos, c, 1);
      st.tok.type = TOKEN.variable;
      return next;
    }
  }
  const len = spanUntil(s, pos, VARIABLE_END);
  st.assign(TOKEN.variable, pos, len);
  return pos + len;
}
