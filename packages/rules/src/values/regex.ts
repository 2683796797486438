// `matches` patterns use Rust regex syntax (no look-around, no backreferences). We translate a
// pattern to a JS RegExp over byte strings (Unicode scalars written as \x{…} or literally become
// their UTF-8 bytes) and build a small tree for the backtracking check in regex-safety.ts.

import { addRange, DIGIT, emptySet, fullSet, invert, SPACE, WORD } from './char-set.ts';
import {
  byteAtom,
  EMPTY,
  hex2,
  type Piece,
  RegexError,
  type RegexNode,
  RegexReader,
  SPACE_CLASS,
  utf8Of,
} from './regex-reader.ts';
import { checkBacktracking } from './regex-safety.ts';

export { RegexError, type RegexNode } from './regex-reader.ts';

const MAX_REPEAT = 1000;
const MAX_GROUP_DEPTH = 64;

class RegexParser extends RegexReader {
  private depth = 0;
  dotAll = false;
  multiLine = false;

  parse(): { source: string; flags: string; tree: RegexNode } {
    this.parseLeadingFlags();
    const body = this.parseAlt();
    if (this.i < this.p.length) this.err('unopened group');
    return { source: body.src, flags: this.multiLine ? 'm' : '', tree: body.node };
  }

  private parseLeadingFlags(): void {
    for (;;) {
      const m = /^\(\?([A-Za-z-]*)\)/.exec(this.p.slice(this.i));
      if (!m) return;
      let on = true;
      for (const f of m[1] ?? '') {
        if (f === '-') on = false;
        else if (f === 'i') this.caseless = on;
        else if (f === 's') this.dotAll = on;
        else if (f === 'm') this.multiLine = on;
        else if (f !== 'u') this.err(`unsupported regex flag ${f}`);
      }
      this.i += m[0].length;
    }
  }

  private parseAlt(): Piece {
    const alts: Piece[] = [this.parseSeq()];
    while (this.p[this.i] === '|') {
      this.i++;
      alts.push(this.parseSeq());
    }
    if (alts.length === 1) return alts[0] as Piece;
    return { src: alts.map((a) => a.src).join('|'), node: { t: 'alt', items: alts.map((a) => a.node) } };
  }

  private parseSeq(): Piece {
    const items: Piece[] = [];
    while (this.i < this.p.length && this.p[this.i] !== '|' && this.p[this.i] !== ')') {
      items.push(this.parseQuantified());
    }
    if (items.length === 1) return items[0] as Piece;
    return { src: items.map((x) => x.src).join(''), node: { t: 'cat', items: items.map((x) => x.node) } };
  }

  private parseQuantified(): Piece {
    const atom = this.parseAtom();
    const q = this.parseQuantifier();
    if (!q) return atom;
    if (atom.assertion) this.err('repetition of an assertion is not supported');
    let lazy = '';
    if (this.p[this.i] === '?') {
      lazy = '?';
      this.i++;
    }
    if (/^[*+?{]/.test(this.p[this.i] ?? '') && this.quantifierAhead())
      this.err('repetition operator missing expression');
    return { src: `${atom.src}${q.src}${lazy}`, node: { t: 'rep', body: atom.node, min: q.min, max: q.max } };
  }

  private quantifierAhead(): boolean {
    const c = this.p[this.i];
    return c !== '{' || /^\{\d*(,\d*)?\}/.test(this.p.slice(this.i));
  }

  private parseQuantifier(): { src: string; min: number; max: number } | undefined {
    const c = this.p[this.i];
    if (c === '*' || c === '+' || c === '?') {
      this.i++;
      return { src: c, min: c === '+' ? 1 : 0, max: c === '?' ? 1 : Number.POSITIVE_INFINITY };
    }
    if (c !== '{') return undefined;
    const m = /^\{(\d+)(,(\d*))?\}/.exec(this.p.slice(this.i));
    if (!m) this.err('invalid repetition: expected {n}, {n,} or {n,m}');
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? Number.POSITIVE_INFINITY : Number(m[3]);
    if (min > MAX_REPEAT || (max !== Number.POSITIVE_INFINITY && max > MAX_REPEAT)) {
      this.err(`repetition count is larger than ${MAX_REPEAT}`);
    }
    if (max < min) this.err('invalid repetition range: the minimum is larger than the maximum');
    this.i += m[0].length;
    return { src: m[0], min, max };
  }

  private parseAtom(): Piece {
    const p = this.p;
    const c = p[this.i] ?? '';
    const code = p.charCodeAt(this.i);
    switch (c) {
      case '(':
        return this.parseGroup();
      case '[':
        return this.parseClass();
      case '.':
        this.i++;
        return this.dotAll
          ? { src: '[\\s\\S]', node: this.set(fullSet()) }
          : { src: '[^\\n]', node: this.set(invert(addRange(emptySet(), 10, 10))) };
      case '^':
      case '$':
        this.i++;
        return { src: c, node: EMPTY, assertion: true };
      case '\\':
        return this.parseEscape();
      case '*':
      case '+':
      case '?':
        this.err('repetition operator missing expression');
    }
    if (code >= 0x80) return this.parseMultiByte();
    this.i++;
    const escaped =
      this.caseless && /[A-Za-z]/.test(c)
        ? byteAtom(code, true)
        : /[{}\]/]/.test(c) || code < 0x20 || code === 0x7f
          ? hex2(code)
          : c;
    return { src: escaped, node: this.set(addRange(emptySet(), code, code)) };
  }

  private parseMultiByte(): Piece {
    const bytes = [this.p.charCodeAt(this.i++)];
    while (this.i < this.p.length) {
      const b = this.p.charCodeAt(this.i);
      if (b < 0x80 || b > 0xbf) break;
      bytes.push(b);
      this.i++;
    }
    return this.byteSequence(bytes);
  }

  private byteSequence(bytes: number[]): Piece {
    const src = bytes.map((b) => byteAtom(b, this.caseless)).join('');
    const nodes = bytes.map((b) => this.set(addRange(emptySet(), b, b)));
    if (bytes.length === 1) return { src, node: nodes[0] as RegexNode };
    return { src: `(?:${src})`, node: { t: 'cat', items: nodes } };
  }

  private parseGroup(): Piece {
    const rest = this.p.slice(this.i);
    let open = '(';
    if (
      rest.startsWith('(?=') ||
      rest.startsWith('(?!') ||
      rest.startsWith('(?<=') ||
      rest.startsWith('(?<!')
    ) {
      this.err('look-around, including look-ahead and look-behind, is not supported');
    }
    const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
    if (named) {
      open = `(?<${named[1]}>`;
      this.i += named[0].length;
    } else if (rest.startsWith('(?:')) {
      open = '(?:';
      this.i += 3;
    } else if (rest.startsWith('(?')) {
      this.err('inline flags are only supported at the start of the pattern');
    } else {
      this.i++;
    }
    if (++this.depth > MAX_GROUP_DEPTH) this.err('regex groups are nested too deeply');
    const body = this.parseAlt();
    this.depth--;
    if (this.p[this.i] !== ')') this.err('unclosed group');
    this.i++;
    return { src: `${open}${body.src})`, node: body.node };
  }

  private parseEscape(): Piece {
    this.i++;
    const c = this.p[this.i];
    if (c === undefined) this.err('incomplete escape sequence');
    this.i++;
    switch (c) {
      case 'd':
        return { src: '[0-9]', node: this.set(DIGIT) };
      case 'D':
        return { src: '[^0-9]', node: this.set(invert(DIGIT)) };
      case 'w':
        return { src: '\\w', node: this.set(WORD) };
      case 'W':
        return { src: '\\W', node: this.set(invert(WORD)) };
      case 's':
        return { src: `[${SPACE_CLASS}]`, node: this.set(SPACE) };
      case 'S':
        return { src: `[^${SPACE_CLASS}]`, node: this.set(invert(SPACE)) };
      case 'b':
      case 'B':
        return { src: `\\${c}`, node: EMPTY, assertion: true };
      case 'A':
        return { src: '(?<![\\s\\S])', node: EMPTY, assertion: true };
      case 'z':
        return { src: '(?![\\s\\S])', node: EMPTY, assertion: true };
      case 'x':
      case 'u':
      case 'U': {
        const cp = this.parseCodePoint(c);
        return this.byteSequence(cp < 0x80 ? [cp] : utf8Of(cp));
      }
      case 'p':
      case 'P':
        this.err('Unicode character classes are not supported');
    }
    const simple = this.simpleEscape(c);
    if (simple !== undefined)
      return { src: hex2(simple), node: this.set(addRange(emptySet(), simple, simple)) };
    if (/[0-9]/.test(c) || c === 'k') this.err('backreferences are not supported');
    this.err(`unrecognized escape sequence \\${c}`);
  }
}

export interface CompiledRegex {
  readonly regexp: RegExp;
  readonly tree: RegexNode;
}

/** Translates and checks a Rust-syntax pattern (bytes); throws RegexError with the reason. */
export function compileRegex(pattern: string, maxLength: number): CompiledRegex {
  if (pattern.length > maxLength) {
    throw new RegexError(`regex is too long: ${pattern.length} bytes, but the limit is ${maxLength}`);
  }
  const parser = new RegexParser(pattern);
  const { source, flags, tree } = parser.parse();
  const unsafe = checkBacktracking(tree);
  if (unsafe) throw new RegexError(unsafe);
  let regexp: RegExp;
  try {
    // (?i) is spelled out in the source (byteAtom, otherCases): no i flag, so V8's linear fallback applies.
    regexp = new RegExp(source, flags);
  } catch (e) {
    throw new RegexError(`regex parse error: ${(e as Error).message}`);
  }
  return { regexp, tree };
}
