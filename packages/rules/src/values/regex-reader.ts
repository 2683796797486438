// The lexical layer of the regex translator: a cursor over the pattern, code point escapes,
// single-byte escapes, and character classes (`[…]`, POSIX `[:name:]`, `\d`/`\w`/`\s`), each
// translated to JS source over bytes plus the byte set the backtracking check needs.

import {
  addRange,
  type CharSet,
  DIGIT,
  emptySet,
  foldCase,
  hasChar,
  invert,
  SPACE,
  union,
  WORD,
} from './char-set.ts';

export type RegexNode =
  | { readonly t: 'set'; readonly set: CharSet }
  | { readonly t: 'empty' }
  | { readonly t: 'cat'; readonly items: readonly RegexNode[] }
  | { readonly t: 'alt'; readonly items: readonly RegexNode[] }
  | { readonly t: 'rep'; readonly body: RegexNode; readonly min: number; readonly max: number };

export class RegexError extends Error {}

export interface Piece {
  readonly src: string;
  readonly node: RegexNode;
  readonly assertion?: boolean;
}

export const EMPTY: RegexNode = { t: 'empty' };
export const SPACE_CLASS = '\\t\\n\\v\\f\\r ';
const POSIX: Record<string, [number, number][]> = {
  alnum: [
    [48, 57],
    [65, 90],
    [97, 122],
  ],
  alpha: [
    [65, 90],
    [97, 122],
  ],
  ascii: [[0, 127]],
  blank: [
    [9, 9],
    [32, 32],
  ],
  cntrl: [
    [0, 31],
    [127, 127],
  ],
  digit: [[48, 57]],
  graph: [[33, 126]],
  lower: [[97, 122]],
  print: [[32, 126]],
  punct: [
    [33, 47],
    [58, 64],
    [91, 96],
    [123, 126],
  ],
  space: [
    [9, 13],
    [32, 32],
  ],
  upper: [[65, 90]],
  word: [
    [48, 57],
    [65, 90],
    [97, 122],
    [95, 95],
  ],
  xdigit: [
    [48, 57],
    [65, 70],
    [97, 102],
  ],
};

export function hex2(c: number): string {
  return `\\x${c.toString(16).padStart(2, '0')}`;
}

const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/**
 * One byte as a regex atom; under (?i) a letter becomes `[xX]`. Case is spelled out rather than
 * left to the i flag, which V8's linear engine refuses (and which would also fold Latin-1 bytes).
 */
export function byteAtom(c: number, caseless: boolean): string {
  return caseless && isLetter(c) ? `[${hex2(c)}${hex2(c ^ 0x20)}]` : hex2(c);
}

/** Class members adding the other ASCII case of the letters in `set` that lack it. */
export function otherCases(set: CharSet): string {
  let out = '';
  for (let c = 65; c <= 122; c++) {
    if (isLetter(c) && hasChar(set, c) && !hasChar(set, c ^ 0x20)) out += hex2(c ^ 0x20);
  }
  return out;
}

export function utf8Of(cp: number): number[] {
  return [...Buffer.from(String.fromCodePoint(cp), 'utf8')];
}

/** Cursor state and the escapes and classes shared by the whole pattern grammar. */
export class RegexReader {
  i = 0;
  caseless = false;

  constructor(protected readonly p: string) {}

  protected err(message: string): never {
    throw new RegexError(message);
  }

  /** A node for a set of bytes (folded when the pattern is case-insensitive). */
  protected set(s: CharSet): RegexNode {
    return { t: 'set', set: this.caseless ? foldCase(s) : s };
  }

  /** A code point from \xHH, \x{H…}, \uHHHH, \u{H…}, \UHHHHHHHH (after the letter). */
  protected parseCodePoint(letter: string): number {
    const rest = this.p.slice(this.i);
    const width = letter === 'x' ? 2 : letter === 'u' ? 4 : 8;
    const m = /^\{([0-9A-Fa-f]{1,8})\}/.exec(rest) ?? new RegExp(`^([0-9A-Fa-f]{${width}})`).exec(rest);
    if (!m) this.err(`invalid hexadecimal escape \\${letter}`);
    const cp = Number.parseInt(m[1] ?? '', 16);
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) this.err('invalid Unicode scalar value');
    this.i += m[0].length;
    return cp;
  }

  /** \n \t \r \f \v \a and escaped punctuation: the byte, or undefined. */
  protected simpleEscape(c: string): number | undefined {
    const named: Record<string, number> = { n: 10, t: 9, r: 13, f: 12, v: 11, a: 7 };
    if (named[c] !== undefined) return named[c];
    const code = c.charCodeAt(0);
    if (code < 0x80 && /[^A-Za-z0-9]/.test(c)) return code;
    return undefined;
  }

  protected parseClass(): Piece {
    const p = this.p;
    this.i++;
    let negate = false;
    if (p[this.i] === '^') {
      negate = true;
      this.i++;
    }
    let set = emptySet();
    let src = '';
    let first = true;
    for (;;) {
      if (this.i >= p.length) this.err('unclosed character class');
      const c = p[this.i] as string;
      if (c === ']' && !first) break;
      first = false;
      const posix = /^\[:(\^?)([a-z]+):\]/.exec(p.slice(this.i));
      if (posix) {
        const ranges = POSIX[posix[2] ?? ''];
        if (!ranges || posix[1]) this.err(`unsupported POSIX class [:${posix[1]}${posix[2]}:]`);
        for (const [a, b] of ranges) {
          set = addRange(set, a, b);
          src += `${hex2(a)}-${hex2(b)}`;
        }
        this.i += posix[0].length;
        continue;
      }
      if (c === '[' || /^(&&|--|~~)/.test(p.slice(this.i)))
        this.err('nested classes and class set operations are not supported');
      const lo = this.classItem();
      if (typeof lo !== 'number') {
        set = union(set, lo.set);
        src += lo.src;
        continue;
      }
      if (p[this.i] === '-' && p[this.i + 1] !== ']' && this.i + 1 < p.length) {
        this.i++;
        const hi = this.classItem();
        if (typeof hi !== 'number') this.err('invalid character class range');
        if (hi < lo) this.err('invalid character class range: the start is larger than the end');
        set = addRange(set, lo, hi);
        src += `${hex2(lo)}-${hex2(hi)}`;
      } else {
        set = addRange(set, lo, lo);
        src += hex2(lo);
      }
    }
    this.i++;
    if (this.caseless) src += otherCases(set);
    const node = this.set(negate ? invert(set) : set);
    return { src: `[${negate ? '^' : ''}${src}]`, node };
  }

  /** One class member: a byte, or a shorthand class (\d, \w, \s and negations). */
  private classItem(): number | { src: string; set: CharSet } {
    const p = this.p;
    const code = p.charCodeAt(this.i);
    if (code >= 0x80) this.err('non-ASCII characters in a character class are not supported');
    if (p[this.i] !== '\\') {
      this.i++;
      return code;
    }
    const c = p[this.i + 1];
    if (c === undefined) this.err('incomplete escape sequence');
    this.i += 2;
    switch (c) {
      case 'd':
        return { src: '0-9', set: DIGIT };
      case 'w':
        return { src: '\\w', set: WORD };
      case 's':
        return { src: SPACE_CLASS, set: SPACE };
      case 'D':
        return { src: '\\D', set: invert(DIGIT) };
      case 'W':
        return { src: '\\W', set: invert(WORD) };
      case 'S':
        return { src: '\\x00-\\x08\\x0e-\\x1f\\x21-\\xff', set: invert(SPACE) };
      case 'x':
      case 'u':
      case 'U': {
        const cp = this.parseCodePoint(c);
        if (cp >= 0x80) this.err('non-ASCII characters in a character class are not supported');
        return cp;
      }
    }
    const simple = this.simpleEscape(c);
    if (simple === undefined) this.err(`unrecognized escape sequence \\${c}`);
    return simple;
  }
}
