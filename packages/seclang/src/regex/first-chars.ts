// Prefilter for translated regexes: the set of bytes a match can start with. When a pattern
// cannot match the empty string, an input holding none of those bytes cannot match at all, and
// a table scan is cheaper than running the regex. Anything the analysis does not understand
// makes it give up (no prefilter), so it is never wrong, only sometimes absent.

const ALL = (): Uint8Array => new Uint8Array(256).fill(1);

class Unsupported extends Error {}

interface Result {
  first: Uint8Array;
  nullable: boolean;
}

function range(set: Uint8Array, from: number, to: number): void {
  for (let c = from; c <= to && c < 256; c++) set[c] = 1;
}

function escapeSet(ch: string): Uint8Array | undefined {
  const set = new Uint8Array(256);
  switch (ch) {
    case 'd':
      range(set, 48, 57);
      return set;
    case 'w':
      range(set, 48, 57);
      range(set, 65, 90);
      range(set, 97, 122);
      set[95] = 1;
      return set;
    case 's':
      for (const c of [9, 10, 11, 12, 13, 32, 0xa0]) set[c] = 1;
      return set;
    case 'D':
    case 'W':
    case 'S': {
      const inner = escapeSet(ch.toLowerCase())!;
      for (let c = 0; c < 256; c++) set[c] = inner[c] ? 0 : 1;
      return set;
    }
    default:
      return undefined;
  }
}

const SIMPLE: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13, '0': 0 };

class Analyzer {
  private i = 0;
  constructor(
    private readonly p: string,
    private readonly caseless: boolean,
  ) {}

  run(): Result {
    const r = this.alternation();
    if (this.i < this.p.length) throw new Unsupported();
    return r;
  }

  private alternation(): Result {
    const first = new Uint8Array(256);
    let nullable = false;
    for (;;) {
      const r = this.sequence();
      for (let c = 0; c < 256; c++) first[c] ||= r.first[c]!;
      nullable ||= r.nullable;
      if (this.p[this.i] !== '|') return { first, nullable };
      this.i++;
    }
  }

  private sequence(): Result {
    const first = new Uint8Array(256);
    let nullable = true;
    while (this.i < this.p.length && this.p[this.i] !== '|' && this.p[this.i] !== ')') {
      const atom = this.quantified();
      if (nullable) for (let c = 0; c < 256; c++) first[c] ||= atom.first[c]!;
      nullable &&= atom.nullable;
    }
    return { first, nullable };
  }

  private quantified(): Result {
    const atom = this.atom();
    const q = this.p[this.i];
    let min = 1;
    if (q === '*' || q === '?') {
      min = 0;
      this.i++;
    } else if (q === '+') this.i++;
    else if (q === '{') {
      const m = /^\{(\d+)(?:,\d*)?\}/.exec(this.p.slice(this.i));
      if (m) {
        min = Number(m[1]);
        this.i += m[0].length;
      }
    }
    if (q !== undefined && '*+?{'.includes(q) && this.p[this.i] === '?') this.i++;
    return min === 0 ? { first: atom.first, nullable: true } : atom;
  }

  private literal(code: number): Result {
    const first = new Uint8Array(256);
    if (code < 256) first[code] = 1;
    else throw new Unsupported();
    if (this.caseless) {
      const ch = String.fromCharCode(code);
      for (const other of [ch.toLowerCase(), ch.toUpperCase()]) {
        const c = other.charCodeAt(0);
        if (c < 256) first[c] = 1;
      }
    }
    return { first, nullable: false };
  }

  private atom(): Result {
    const p = this.p;
    const c = p[this.i]!;
    if (c === '(') {
      this.i++;
      let zeroWidth = false;
      if (p.startsWith('?:', this.i)) this.i += 2;
      else if (p.startsWith('?=', this.i) || p.startsWith('?!', this.i))
        [zeroWidth, this.i] = [true, this.i + 2];
      else if (p.startsWith('?<=', this.i) || p.startsWith('?<!', this.i))
        [zeroWidth, this.i] = [true, this.i + 3];
      else if (p[this.i] === '?') throw new Unsupported();
      const inner = this.alternation();
      if (p[this.i] !== ')') throw new Unsupported();
      this.i++;
      return zeroWidth ? { first: new Uint8Array(256), nullable: true } : inner;
    }
    if (c === '[') return this.charClass();
    if (c === '.') {
      this.i++;
      return { first: ALL(), nullable: false };
    }
    if (c === '^' || c === '$') {
      this.i++;
      return { first: new Uint8Array(256), nullable: true };
    }
    if (c === '\\') {
      const n = p[this.i + 1]!;
      this.i += 2;
      if (n === 'b' || n === 'B') return { first: new Uint8Array(256), nullable: true };
      if (/[1-9]/.test(n)) throw new Unsupported();
      const set = escapeSet(n);
      if (set) return { first: set, nullable: false };
      if (n === 'x') {
        const code = Number.parseInt(p.slice(this.i, this.i + 2), 16);
        this.i += 2;
        return this.literal(code);
      }
      if (n === 'u') {
        const code = Number.parseInt(p.slice(this.i, this.i + 4), 16);
        this.i += 4;
        return this.literal(code);
      }
      if (SIMPLE[n] !== undefined) return this.literal(SIMPLE[n]!);
      if (/[a-zA-Z]/.test(n)) throw new Unsupported();
      return this.literal(n.charCodeAt(0));
    }
    if ('*+?{'.includes(c)) throw new Unsupported();
    this.i++;
    return this.literal(c.charCodeAt(0));
  }

  private classChar(): number {
    const p = this.p;
    if (p[this.i] !== '\\') return p.charCodeAt(this.i++);
    const n = p[this.i + 1]!;
    this.i += 2;
    if (n === 'x') {
      this.i += 2;
      return Number.parseInt(p.slice(this.i - 2, this.i), 16);
    }
    if (n === 'u') {
      this.i += 4;
      return Number.parseInt(p.slice(this.i - 4, this.i), 16);
    }
    if (SIMPLE[n] !== undefined) return SIMPLE[n]!;
    if (n === 'b') return 8;
    if (/[a-zA-Z0-9]/.test(n)) throw new Unsupported();
    return n.charCodeAt(0);
  }

  private charClass(): Result {
    const p = this.p;
    this.i++;
    const negated = p[this.i] === '^';
    if (negated) this.i++;
    const set = new Uint8Array(256);
    let any = false;
    while (this.i < p.length && p[this.i] !== ']') {
      if (p[this.i] === '\\') {
        const esc = escapeSet(p[this.i + 1]!);
        if (esc) {
          for (let c = 0; c < 256; c++) set[c] ||= esc[c]!;
          this.i += 2;
          continue;
        }
      }
      const from = this.classChar();
      if (from > 255) any = true;
      let to = from;
      if (p[this.i] === '-' && p[this.i + 1] !== ']' && this.i + 1 < p.length) {
        this.i++;
        to = this.classChar();
        if (to < from) throw new Unsupported();
      }
      range(set, from, to);
      if (this.caseless) {
        for (let c = from; c <= to && c < 256; c++) {
          const ch = String.fromCharCode(c);
          for (const o of [ch.toLowerCase(), ch.toUpperCase()])
            if (o.charCodeAt(0) < 256) set[o.charCodeAt(0)] = 1;
        }
      }
    }
    if (p[this.i] !== ']') throw new Unsupported();
    this.i++;
    if (any && negated) throw new Unsupported();
    if (negated) for (let c = 0; c < 256; c++) set[c] = set[c] ? 0 : 1;
    return { first: set, nullable: false };
  }
}

/**
 * The bytes a match of `re` can start with, or undefined when there is no useful prefilter
 * (the pattern can match the empty string, uses constructs the analysis skips, or can start
 * with nearly anything).
 */
export function firstChars(re: RegExp): Uint8Array | undefined {
  if (re.flags.includes('m') || re.flags.includes('u') || re.flags.includes('y')) return undefined;
  try {
    const r = new Analyzer(re.source, re.flags.includes('i')).run();
    if (r.nullable) return undefined;
    let count = 0;
    for (let c = 0; c < 256; c++) count += r.first[c]!;
    return count > 160 ? undefined : r.first;
  } catch (err) {
    if (err instanceof Unsupported) return undefined;
    throw err;
  }
}

/** True when `input` holds a byte from `set` (or any char above 0xFF). */
export function mayMatch(set: Uint8Array, input: string): boolean {
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c > 255 || set[c] === 1) return true;
  }
  return false;
}
