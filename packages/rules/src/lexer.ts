// The lexer: a cursor over the expression that hands out tokens with spans. The parser asks for
// the token kind it expects next (an operator, a string in basic or regex escaping, a bare
// literal), because which tokens are possible depends on where we are, as in wirefilter.

import { fail, reasons, type Span } from './errors.ts';
import { utf8ToBytes } from './values/bytes.ts';

export interface Token {
  readonly text: string;
  readonly span: Span;
}

export interface StringToken {
  /** Bytes (one char per byte). */
  readonly value: string;
  /** `#` count for raw strings, -1 for quoted strings. */
  readonly raw: number;
  readonly span: Span;
}

/** How a quoted string treats `\`: basic escapes, or regex escaping (only `\"` is unescaped). */
export type EscapeMode = 'basic' | 'regex';

const MAX_RAW_HASHES = 255;

function isIdentChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isWordStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isBareChar(c: number): boolean {
  // digits, letters (hex and better errors), ':' '.' '/' '-'
  return isIdentChar(c) || c === 58 || c === 46 || c === 47 || c === 45;
}

export class Lexer {
  pos = 0;

  constructor(readonly src: string) {}

  skipSpace(): void {
    const s = this.src;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos);
      if (c === 32 || c === 10 || c === 13 || c === 9) this.pos++;
      else break;
    }
  }

  atEnd(): boolean {
    this.skipSpace();
    return this.pos >= this.src.length;
  }

  /** The next character code after spaces, or -1 at the end. */
  peekCode(offset = 0): number {
    this.skipSpace();
    const i = this.pos + offset;
    return i < this.src.length ? this.src.charCodeAt(i) : -1;
  }

  here(): Span {
    this.skipSpace();
    return { start: this.pos, end: this.pos + 1 };
  }

  /** Span from `pos` to the end of its line (for "unrecognised input"). */
  restOfLine(): Span {
    this.skipSpace();
    let end = this.src.indexOf('\n', this.pos);
    if (end === -1) end = this.src.length;
    return { start: this.pos, end: Math.max(end, this.pos + 1) };
  }

  /** Consumes `p` when it comes next (with `!` not taken from `!=`, `&` not from `&&`). */
  eatPunct(p: string): Span | undefined {
    this.skipSpace();
    if (!this.src.startsWith(p, this.pos)) return undefined;
    const next = this.src.charCodeAt(this.pos + p.length);
    if (p === '!' && next === 61) return undefined;
    if (p === '&' && next === 38) return undefined;
    if ((p === '<' || p === '>') && next === 61) return undefined;
    const span = { start: this.pos, end: this.pos + p.length };
    this.pos += p.length;
    return span;
  }

  expectPunct(p: string): Span {
    const span = this.eatPunct(p);
    if (!span) fail(this.here(), reasons.expectedLiteral(p));
    return span;
  }

  /** The next plain word (`[A-Za-z_][A-Za-z0-9_]*`, no dots), not consumed. */
  peekWord(): Token | undefined {
    this.skipSpace();
    const s = this.src;
    const start = this.pos;
    if (start >= s.length || !isWordStart(s.charCodeAt(start))) return undefined;
    let end = start + 1;
    while (end < s.length && isIdentChar(s.charCodeAt(end))) end++;
    return { text: s.slice(start, end), span: { start, end } };
  }

  /** Consumes the keyword `w` when it is the next whole word. */
  eatWord(w: string): Span | undefined {
    const word = this.peekWord();
    if (!word || word.text !== w) return undefined;
    this.pos = word.span.end;
    return word.span;
  }

  /** A dotted identifier: `http.request.uri.path`. */
  readIdentifier(): Token {
    this.skipSpace();
    const s = this.src;
    const start = this.pos;
    let i = start;
    for (;;) {
      const segStart = i;
      while (i < s.length && isIdentChar(s.charCodeAt(i))) i++;
      if (i === segStart) fail({ start: i, end: i + 1 }, reasons.expected('identifier character'));
      if (s.charCodeAt(i) === 46 && i + 1 <= s.length) {
        i++;
        continue;
      }
      break;
    }
    this.pos = i;
    return { text: s.slice(start, i), span: { start, end: i } };
  }

  /** `$name` with `[a-z0-9_]` characters. */
  readListName(): Token {
    this.skipSpace();
    const s = this.src;
    const start = this.pos;
    let i = start + 1;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95) i++;
      else break;
    }
    if (i === start + 1) fail({ start: i, end: i + 1 }, reasons.expected('list name'));
    this.pos = i;
    return { text: s.slice(start + 1, i), span: { start, end: i } };
  }

  /** True when a quoted or raw string starts here. */
  atString(): boolean {
    const c = this.peekCode();
    if (c === 34) return true;
    if (c !== 114) return false;
    const n = this.peekCode(1);
    return n === 34 || n === 35;
  }

  readString(mode: EscapeMode): StringToken {
    this.skipSpace();
    if (this.src.charCodeAt(this.pos) === 114) return this.readRawString();
    if (this.src.charCodeAt(this.pos) !== 34) fail(this.here(), reasons.expected('" or r'));
    return this.readQuotedString(mode);
  }

  private readQuotedString(mode: EscapeMode): StringToken {
    const s = this.src;
    const start = this.pos;
    let i = start + 1;
    let out = '';
    let chunk = i;
    for (;;) {
      if (i >= s.length) fail({ start, end: s.length }, reasons.missingEndingQuote);
      const c = s.charCodeAt(i);
      if (c === 34) break;
      if (c !== 92) {
        i++;
        continue;
      }
      out += utf8ToBytes(s.slice(chunk, i));
      const e = s.charCodeAt(i + 1);
      if (i + 1 >= s.length) fail({ start, end: s.length }, reasons.missingEndingQuote);
      if (mode === 'regex') {
        out += e === 34 ? '"' : s.slice(i, i + 2);
        i += 2;
      } else if (e === 34 || e === 92) {
        out += String.fromCharCode(e);
        i += 2;
      } else if (e === 120) {
        out += String.fromCharCode(this.escapeNumber(i + 2, 2, 16));
        i += 4;
      } else if (e >= 48 && e <= 55) {
        out += String.fromCharCode(this.escapeNumber(i + 1, 3, 8));
        i += 4;
      } else {
        fail({ start: i, end: i + 2 }, reasons.invalidEscape);
      }
      chunk = i;
    }
    out += utf8ToBytes(s.slice(chunk, i));
    this.pos = i + 1;
    return { value: out, raw: -1, span: { start, end: i + 1 } };
  }

  private escapeNumber(at: number, digits: number, radix: 8 | 16): number {
    const text = this.src.slice(at, at + digits);
    const span = { start: at, end: at + digits };
    if (text.length < digits) fail(span, `expected ${digits} characters, but found ${text.length}`);
    const valid = radix === 16 ? /^[0-9A-Fa-f]+$/ : /^[0-7]+$/;
    if (!valid.test(text)) fail(span, reasons.parseInt('invalid digit found in string', radix));
    const n = Number.parseInt(text, radix);
    if (n > 255) fail(span, reasons.parseInt('number too large to fit in target type', radix));
    return n;
  }

  private readRawString(): StringToken {
    const s = this.src;
    const start = this.pos;
    let i = start + 1;
    let hashes = 0;
    while (s.charCodeAt(i) === 35) {
      hashes++;
      i++;
    }
    if (hashes > MAX_RAW_HASHES) fail({ start, end: i }, `raw strings take at most ${MAX_RAW_HASHES} #`);
    if (s.charCodeAt(i) !== 34) fail({ start: i, end: i + 1 }, reasons.expectedLiteral('"'));
    const close = `"${'#'.repeat(hashes)}`;
    const end = s.indexOf(close, i + 1);
    if (end === -1) fail({ start, end: s.length }, reasons.missingEndingQuote);
    this.pos = end + close.length;
    return { value: utf8ToBytes(s.slice(i + 1, end)), raw: hashes, span: { start, end: this.pos } };
  }

  /** True when a bare literal (number, IP address, range, CIDR) may start here. */
  atBareLiteral(allowHexStart: boolean): boolean {
    const c = this.peekCode();
    if ((c >= 48 && c <= 57) || c === 45 || c === 58) return true;
    if (!allowHexStart) return false;
    // IPv6 starting with a hex letter, e.g. fe80::1 — only when a ':' follows the hex run.
    let i = this.pos;
    while (i < this.src.length && /[0-9A-Fa-f]/.test(this.src[i] ?? '')) i++;
    return i > this.pos && this.src.charCodeAt(i) === 58;
  }

  /** A run of literal characters: `443`, `0x1f`, `8000..8009`, `192.0.2.0/24`, `2001:db8::1`. */
  readBare(): Token {
    this.skipSpace();
    const s = this.src;
    const start = this.pos;
    let i = start;
    while (i < s.length && isBareChar(s.charCodeAt(i))) i++;
    if (i === start) fail(this.here(), reasons.expected('literal'));
    this.pos = i;
    return { text: s.slice(start, i), span: { start, end: i } };
  }
}
