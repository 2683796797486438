// A JSON reader that reports what ModSecurity v3's yajl-based processor reports: each scalar with
// its text as sent (numbers keep their spelling: `2.50`, `1E+2`), strings as UTF-8 bytes, and the
// errors in yajl's words. Iterative (an explicit stack, no recursion), one pass over the bytes.
// Input and output are binary strings (one char per byte).

export interface JsonEvents {
  /** A container opens; returns an error message to stop (the depth limit). */
  open(kind: 'map' | 'array'): string | undefined;
  close(): void;
  key(name: string): void;
  /** A scalar: a string's bytes, a number's text, `true`/`false`, or null. */
  scalar(value: string | null): string | undefined;
}

export class JsonSyntaxError extends Error {}

const lexical = (what: string) => new JsonSyntaxError(`lexical error: ${what}`);
const parseError = (what: string) => new JsonSyntaxError(`parse error: ${what}`);

/** yajl's whitespace: space, \t, \n, \v, \f, \r. */
const isSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d);
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

function hexValue(c: number): number {
  if (isDigit(c)) return c - 0x30;
  const lower = c | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x57;
  throw lexical("invalid (non-hex) character occurs after '\\u' inside string.");
}

/** A code point as UTF-8 bytes, as yajl writes it (surrogates included; '?' past 21 bits). */
function utf8(cp: number): string {
  if (cp < 0x80) return String.fromCharCode(cp);
  if (cp < 0x800) return String.fromCharCode(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
  if (cp < 0x10000)
    return String.fromCharCode(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  if (cp < 0x200000)
    return String.fromCharCode(
      0xf0 | (cp >> 18),
      0x80 | ((cp >> 12) & 0x3f),
      0x80 | ((cp >> 6) & 0x3f),
      0x80 | (cp & 0x3f),
    );
  return '?';
}

const ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

class Reader {
  pos = 0;
  constructor(readonly text: string) {}

  skipSpace(): number {
    const t = this.text;
    while (this.pos < t.length && isSpace(t.charCodeAt(this.pos))) this.pos++;
    return this.pos < t.length ? t.charCodeAt(this.pos) : -1;
  }

  /** The string starting at the opening quote, decoded; yajl checks UTF-8 structure only. */
  string(): string {
    const t = this.text;
    let i = this.pos + 1;
    let out = '';
    let start = i;
    for (;;) {
      if (i >= t.length) throw parseError('premature EOF');
      const c = t.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) throw lexical('invalid character inside string.');
      if (c === 0x5c) {
        out += t.slice(start, i);
        i = this.escape(i, (s) => {
          out += s;
        });
        start = i;
        continue;
      }
      if (c >= 0x80) i = this.utf8Sequence(i, c);
      else i++;
    }
    this.pos = i + 1;
    return out + t.slice(start, i);
  }

  private utf8Sequence(i: number, lead: number): number {
    const extra = lead >> 5 === 0x6 ? 1 : lead >> 4 === 0xe ? 2 : lead >> 3 === 0x1e ? 3 : -1;
    if (extra < 0) throw lexical('invalid bytes in UTF8 string.');
    for (let k = 1; k <= extra; k++) {
      if (i + k >= this.text.length) throw parseError('premature EOF');
      if (this.text.charCodeAt(i + k) >> 6 !== 0x2) throw lexical('invalid bytes in UTF8 string.');
    }
    return i + extra + 1;
  }

  private hex4(i: number): number {
    if (i + 4 > this.text.length) throw parseError('premature EOF');
    let v = 0;
    for (let k = 0; k < 4; k++) v = (v << 4) | hexValue(this.text.charCodeAt(i + k));
    return v;
  }

  /** Decodes the escape at `i` (a backslash); returns the index after it. */
  private escape(i: number, emit: (s: string) => void): number {
    const t = this.text;
    if (i + 1 >= t.length) throw parseError('premature EOF');
    const e = t[i + 1] as string;
    if (e !== 'u') {
      const plain = ESCAPES[e];
      if (plain === undefined)
        throw lexical("inside a string, '\\' occurs before a character which it may not.");
      emit(plain);
      return i + 2;
    }
    let cp = this.hex4(i + 2);
    let next = i + 6;
    if ((cp & 0xfc00) === 0xd800) {
      // yajl pairs a high surrogate with whatever \u escape follows, and writes '?' without one
      if (t.charCodeAt(next) === 0x5c && t.charCodeAt(next + 1) === 0x75) {
        const low = this.hex4(next + 2);
        cp = ((cp & 0x3f) << 10) | ((((cp >> 6) & 0xf) + 1) << 16) | (low & 0x3ff);
        next += 6;
      } else {
        emit('?');
        return next;
      }
    }
    emit(utf8(cp));
    return next;
  }

  number(): string {
    const t = this.text;
    const start = this.pos;
    let i = start;
    if (t.charCodeAt(i) === 0x2d) {
      i++;
      if (!isDigit(t.charCodeAt(i))) throw this.numberEnd(i, 'a digit is required after the minus sign.');
    }
    if (t.charCodeAt(i) === 0x30) i++;
    else while (isDigit(t.charCodeAt(i))) i++;
    if (t.charCodeAt(i) === 0x2e) {
      i++;
      if (!isDigit(t.charCodeAt(i))) throw this.numberEnd(i, 'a digit is required after the decimal point.');
      while (isDigit(t.charCodeAt(i))) i++;
    }
    if ((t.charCodeAt(i) | 0x20) === 0x65) {
      i++;
      if (t.charCodeAt(i) === 0x2b || t.charCodeAt(i) === 0x2d) i++;
      if (!isDigit(t.charCodeAt(i))) throw this.numberEnd(i, 'a digit is required after the exponent.');
      while (isDigit(t.charCodeAt(i))) i++;
    }
    this.pos = i;
    return t.slice(start, i);
  }

  private numberEnd(i: number, missing: string): JsonSyntaxError {
    if (i >= this.text.length) return parseError('premature EOF');
    return lexical(`malformed number, ${missing}`);
  }

  /** `true`, `false` or `null` at the reader's position. */
  literal(): string | null {
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return word === 'null' ? null : word;
      }
      const rest = this.text.length - this.pos;
      if (rest < word.length && word.startsWith(this.text.slice(this.pos))) throw parseError('premature EOF');
    }
    throw lexical('invalid string in json text.');
  }
}

/** Token starts yajl lexes (a structural character, a string, a number or a literal). */
const TOKEN_START = /^[{}[\]:,"\-0-9tfn]$/;

/**
 * yajl lexes a token before the parser judges it: a character that starts no token is a lexical error,
 * whatever the parser expected there.
 */
function unexpected(c: number, parseMessage: string): JsonSyntaxError {
  if (c === 0x2f) return lexical('probable comment found in input text, comments are not enabled.');
  if (!TOKEN_START.test(String.fromCharCode(c))) return lexical('invalid char in json text.');
  return parseError(parseMessage);
}

type Frame = { kind: 'map' | 'array'; items: number };

/**
 * Reads one JSON document from `text`, reporting it to `events`. Throws JsonSyntaxError with yajl's
 * message for malformed input, and with the events' message when they stop the parse.
 */
export function scanJson(text: string, events: JsonEvents): void {
  const r = new Reader(text);
  const stack: Frame[] = [];
  const stop = (message: string | undefined) => {
    if (message !== undefined) throw new JsonSyntaxError(message);
  };
  /** Reads a value at the reader's position: a scalar, or the opening of a container. */
  const value = (): void => {
    const c = r.skipSpace();
    if (c === -1) throw parseError('premature EOF');
    if (c === 0x7b || c === 0x5b) {
      const kind = c === 0x7b ? 'map' : 'array';
      stop(events.open(kind));
      stack.push({ kind, items: 0 });
      r.pos++;
      return;
    }
    if (c === 0x22) stop(events.scalar(r.string()));
    else if (c === 0x2d || isDigit(c)) stop(events.scalar(r.number()));
    else if (c === 0x74 || c === 0x66 || c === 0x6e) stop(events.scalar(r.literal()));
    else throw unexpected(c, 'unallowed token at this point in JSON text');
  };
  /** Reads a map's key and the colon after it. */
  const key = (): void => {
    const c = r.skipSpace();
    if (c === -1) throw parseError('premature EOF');
    if (c !== 0x22) throw unexpected(c, 'invalid object key (must be a string)');
    events.key(r.string());
    const colon = r.skipSpace();
    if (colon === -1) throw parseError('premature EOF');
    if (colon !== 0x3a) throw unexpected(colon, "object key and value must be separated by a colon (':')");
    r.pos++;
  };

  value();
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as Frame;
    const c = r.skipSpace();
    if (c === -1) throw parseError('premature EOF');
    const end = top.kind === 'map' ? 0x7d : 0x5d;
    if (top.items === 0 && c === end) {
      r.pos++;
      stack.pop();
      events.close();
      continue;
    }
    if (top.items > 0) {
      if (c === end) {
        r.pos++;
        stack.pop();
        events.close();
        continue;
      }
      if (c !== 0x2c) {
        throw unexpected(
          c,
          top.kind === 'map'
            ? "after key and value, inside map, I expect ',' or '}'"
            : "after array element, I expect ',' or ']'",
        );
      }
      r.pos++;
    }
    top.items++;
    if (top.kind === 'map') key();
    value();
  }
  // yajl lexes nothing after the document: anything there is garbage
  if (r.skipSpace() !== -1) throw parseError('trailing garbage');
}
