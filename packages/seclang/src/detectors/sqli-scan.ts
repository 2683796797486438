// Shared state and byte-level helpers of the SQLi tokenizer. Input is a binary string (one char
// per byte); a character above 0xFF is treated like a byte ≥ 0x80, a word character.

import { newToken, type SqlToken, TOKEN, TOKEN_VALUE_MAX } from './sqli-token.ts';

/** How the input is read: as is, or as if it followed an opening ' or ". */
export type QuoteMode = '' | "'" | '"';

export class ScanState {
  s = '';
  quote: QuoteMode = '';
  /** MySQL reading: `#` starts a comment and `--x` is not one. */
  mysql = false;
  pos = 0;
  /** Tokens produced so far, comments included. */
  tokenCount = 0;
  /** `--x` comments read in ANSI mode and `#` seen: either makes a MySQL re-read worthwhile. */
  dashCommentNoSpace = 0;
  hashSeen = 0;
  /** The token being filled. */
  tok: SqlToken = newToken();

  /** Starts a reading of `s` (the state is reused: detection is synchronous). */
  reset(s: string, quote: QuoteMode, mysql: boolean): void {
    this.s = s;
    this.quote = quote;
    this.mysql = mysql;
    this.pos = 0;
    this.tokenCount = 0;
    this.dashCommentNoSpace = 0;
    this.hashSeen = 0;
  }

  get n(): number {
    return this.s.length;
  }

  /** Sets the current token to `type` with the text s[start, start+len), cut to 31 chars. */
  assign(type: string, start: number, len: number): void {
    const t = this.tok;
    t.type = type;
    t.val = this.s.slice(start, start + Math.min(len, TOKEN_VALUE_MAX));
  }

  assignChar(type: string, start: number): void {
    this.tok.type = type;
    this.tok.val = this.s.charAt(start);
  }
}

/** Space, \t \n \v \f \r, NUL and Latin-1 no-break space. */
export function isWhite(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0 || c === 160;
}

/** A byte set for spanOf/spanUntil; NUL is always in it (the C library's strchr finds it). */
export function byteSet(chars: string): Uint8Array {
  const set = new Uint8Array(256);
  set[0] = 1;
  for (let i = 0; i < chars.length; i++) set[chars.charCodeAt(i)] = 1;
  return set;
}

/** Length of the run from `from` of characters in `accept`. */
export function spanOf(s: string, from: number, accept: Uint8Array): number {
  let i = from;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 255 || accept[c] === 0) break;
  }
  return i - from;
}

/** Length of the run from `from` of characters not in `stop`. */
export function spanUntil(s: string, from: number, stop: Uint8Array): number {
  let i = from;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 256 && stop[c] === 1) break;
  }
  return i - from;
}

/** Index of the first pair c0 c1 starting in [from, last], or -1. */
export function findPair(s: string, from: number, last: number, c0: number, c1: number): number {
  const end = Math.min(last, s.length - 2);
  for (let i = from; i <= end; i++) {
    if (s.charCodeAt(i) === c0 && s.charCodeAt(i + 1) === c1) return i;
  }
  return -1;
}

/** Whether the character at `end` is escaped by an odd run of backslashes reaching back to `start`. */
function backslashEscaped(s: string, end: number, start: number): boolean {
  let p = end;
  while (p >= start && s.charCodeAt(p) === 92) p--;
  return ((end - p) & 1) === 1;
}

/**
 * Reads a quoted string whose body starts at start+offset (offset 0: the opening quote is only
 * assumed). A quote escaped by a backslash or doubled does not close it. Returns the next position.
 */
export function readQuoted(st: ScanState, start: number, delim: string, offset: number): number {
  const s = st.s;
  const bodyStart = start + offset;
  const t = st.tok;
  t.strOpen = offset > 0 ? delim : '';
  let q = s.indexOf(delim, bodyStart);
  while (q >= 0) {
    if (backslashEscaped(s, q - 1, bodyStart)) {
      q = s.indexOf(delim, q + 1);
    } else if (q + 1 < s.length && s[q + 1] === delim) {
      q = s.indexOf(delim, q + 2);
    } else {
      st.assign(TOKEN.string, bodyStart, q - bodyStart);
      t.strClose = delim;
      return q + 1;
    }
  }
  st.assign(TOKEN.string, bodyStart, s.length - bodyStart);
  t.strClose = '';
  return s.length;
}
