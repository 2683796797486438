// Character-class prefilter for operators that need some characters to be present: `@rx` and
// `@pm`/`@pmFromFile`. Bytes fall into 64 classes (a letter in either case, any digit, each ASCII
// punctuation character, ASCII whitespace, NUL, other controls, any byte ≥ 0x80); a value's
// classes form a 64-bit set, computed once per distinct value and transaction. An operator's
// prefilter is a few class masks such that every possible match contains a byte of each mask; a
// value that misses one of them cannot match, and the operator is not run.
//
// The regex analysis is conservative: anything it does not model is treated as an atom that may
// match anything (or nothing), which only weakens the prefilter. Inputs holding a character above
// 0xFF (never produced from binary strings, but possible through the API) pass every prefilter.

/** byte → class 0–63 */
export const CLASS_OF = new Uint8Array(256);
const PUNCT = ' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
const WS_CLASS = 60;
const NUL_CLASS = 61;
const CTL_CLASS = 62;
const HIGH_CLASS = 63;
const DIGIT_CLASS = 26;
for (let c = 0; c < 256; c++) {
  let k: number;
  if (c >= 97 && c <= 122) k = c - 97;
  else if (c >= 65 && c <= 90) k = c - 65;
  else if (c >= 48 && c <= 57) k = DIGIT_CLASS;
  else if (c >= 0x80) k = HIGH_CLASS;
  else if (c === 0) k = NUL_CLASS;
  else if (c >= 9 && c <= 13) k = WS_CLASS;
  else if (c < 32 || c === 127) k = CTL_CLASS;
  else k = 27 + PUNCT.indexOf(String.fromCharCode(c));
  CLASS_OF[c] = k;
}

/** Rough chance that a benign request value holds a byte of each class (cost model only). */
const WEIGHT = new Float64Array(64);
{
  const letters =
    'e.5 t.45 a.45 o.4 i.4 n.4 s.4 r.35 l.3 c.3 u.25 d.25 m.2 h.2 p.2 g.15 b.15 f.12 y.12 w.1 v.08 k.08 x.05 j.03 z.03 q.02';
  for (const item of letters.split(' ')) WEIGHT[item.charCodeAt(0) - 97] = Number(item.slice(1));
  WEIGHT[DIGIT_CLASS] = 0.5;
  const punct: Record<string, number> = {
    ' ': 0.3,
    '.': 0.3,
    '-': 0.2,
    _: 0.15,
    '/': 0.15,
    ':': 0.1,
    '=': 0.08,
    ',': 0.08,
    '%': 0.05,
    ';': 0.05,
    '+': 0.05,
    '?': 0.03,
    '&': 0.03,
    '@': 0.03,
  };
  for (let i = 0; i < PUNCT.length; i++) WEIGHT[27 + i] = punct[PUNCT[i]!] ?? 0.015;
  WEIGHT[WS_CLASS] = 0.01;
  WEIGHT[NUL_CLASS] = 0.001;
  WEIGHT[CTL_CLASS] = 0.002;
  WEIGHT[HIGH_CLASS] = 0.05;
}

/** A set of classes as two 32-bit halves. */
interface Mask {
  readonly lo: number;
  readonly hi: number;
}

const EMPTY: Mask = { lo: 0, hi: 0 };
const ALL: Mask = { lo: -1, hi: -1 };

function bit(k: number): Mask {
  return k < 32 ? { lo: 1 << k, hi: 0 } : { lo: 0, hi: 1 << (k - 32) };
}

function or(a: Mask, b: Mask): Mask {
  return { lo: a.lo | b.lo, hi: a.hi | b.hi };
}

function same(a: Mask, b: Mask): boolean {
  return a.lo === b.lo && a.hi === b.hi;
}

/** a ⊆ b */
function within(a: Mask, b: Mask): boolean {
  return (a.lo & ~b.lo) === 0 && (a.hi & ~b.hi) === 0;
}

function has(m: Mask, k: number): boolean {
  return k < 32 ? (m.lo & (1 << k)) !== 0 : (m.hi & (1 << (k - 32))) !== 0;
}

/** Chance that a benign value passes the mask. */
function cost(m: Mask): number {
  let miss = 1;
  for (let k = 0; k < 64; k++) if (has(m, k)) miss *= 1 - WEIGHT[k]!;
  return 1 - miss;
}

function maskOfBytes(set: Uint8Array): Mask {
  let lo = 0;
  let hi = 0;
  for (let c = 0; c < 256; c++) {
    if (set[c] !== 1) continue;
    const k = CLASS_OF[c]!;
    if (k < 32) lo |= 1 << k;
    else hi |= 1 << (k - 32);
  }
  return { lo, hi };
}

/** Masks tried per node, and kept in a prefilter. */
const KEEP = 4;
const MAX_MASKS = 3;
/** A mask that most benign values pass is not worth checking. */
const MAX_COST = 0.9;

/** The cheapest masks of `candidates`, without duplicates or masks implied by a kept one. */
function best(candidates: readonly Mask[], limit: number): Mask[] {
  const sorted = candidates
    .filter((m) => !same(m, ALL))
    .map((m) => ({ m, c: cost(m) }))
    .sort((a, b) => a.c - b.c);
  const out: Mask[] = [];
  for (const { m } of sorted) {
    if (out.length >= limit) break;
    if (out.some((kept) => within(kept, m))) continue;
    out.push(m);
  }
  return out;
}

interface Info {
  /** The node can match the empty string. */
  nullable: boolean;
  /** Classes a non-empty match can start with. */
  first: Mask;
  /** Every match holds a byte of each of these masks (cheapest first). */
  req: Mask[];
}

const UNKNOWN: Info = { nullable: true, first: ALL, req: [] };
const ZERO_WIDTH: Info = { nullable: true, first: EMPTY, req: [] };

function single(m: Mask): Info {
  return { nullable: false, first: m, req: [m] };
}

const SIMPLE_ESCAPES: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13 };

function byteSetOfEscape(ch: string): Uint8Array | undefined {
  const set = new Uint8Array(256);
  const fill = (from: number, to: number) => set.fill(1, from, to + 1);
  switch (ch) {
    case 'd':
      fill(48, 57);
      return set;
    case 'w':
      fill(48, 57);
      fill(65, 90);
      fill(97, 122);
      set[95] = 1;
      return set;
    case 's':
      fill(9, 13);
      set[32] = 1;
      set[0xa0] = 1;
      return set;
    case 'D':
    case 'W':
    case 'S': {
      const inner = byteSetOfEscape(ch.toLowerCase())!;
      for (let c = 0; c < 256; c++) set[c] = inner[c] === 1 ? 0 : 1;
      return set;
    }
    default:
      return undefined;
  }
}

class Analyzer {
  private i = 0;
  private failed = false;
  constructor(private readonly p: string) {}

  run(): Info {
    const r = this.alternation();
    if (this.failed || this.i !== this.p.length) return UNKNOWN;
    return r;
  }

  private alternation(): Info {
    const branches: Info[] = [this.sequence()];
    while (this.p[this.i] === '|') {
      this.i++;
      branches.push(this.sequence());
    }
    if (branches.length === 1) return branches[0]!;
    let first = EMPTY;
    let nullable = false;
    for (const b of branches) {
      first = or(first, b.first);
      nullable ||= b.nullable;
    }
    if (nullable) return { nullable, first, req: [] };
    const options = branches.map((b) => best([...b.req, b.first], KEEP));
    if (options.some((o) => o.length === 0)) return { nullable, first, req: [] };
    const req: Mask[] = [first];
    for (let k = 0; k < KEEP; k++) {
      let m = EMPTY;
      for (const o of options) m = or(m, o[Math.min(k, o.length - 1)]!);
      req.push(m);
    }
    return { nullable, first, req: best(req, KEEP) };
  }

  private sequence(): Info {
    let first = EMPTY;
    let nullable = true;
    const req: Mask[] = [];
    while (this.i < this.p.length && this.p[this.i] !== '|' && this.p[this.i] !== ')') {
      const atom = this.quantified();
      if (nullable) first = or(first, atom.first);
      nullable &&= atom.nullable;
      req.push(...atom.req);
    }
    if (!nullable) req.push(first);
    return { nullable, first, req: best(req, KEEP) };
  }

  private quantified(): Info {
    const atom = this.atom();
    const p = this.p;
    const q = p[this.i];
    let min = 1;
    let quantified = false;
    if (q === '*' || q === '?') {
      min = 0;
      quantified = true;
      this.i++;
    } else if (q === '+') {
      quantified = true;
      this.i++;
    } else if (q === '{') {
      const m = /^\{(\d+)(?:,\d*)?\}/.exec(p.slice(this.i, this.i + 24));
      if (m) {
        min = Number(m[1]);
        quantified = true;
        this.i += m[0].length;
      }
    }
    if (quantified && p[this.i] === '?') this.i++;
    return min === 0 ? { nullable: true, first: atom.first, req: [] } : atom;
  }

  private atom(): Info {
    const p = this.p;
    const c = p[this.i]!;
    if (c === '(') return this.group();
    if (c === '[') return this.charClass();
    if (c === '.') {
      this.i++;
      return { nullable: false, first: ALL, req: [] };
    }
    if (c === '^' || c === '$') {
      this.i++;
      return ZERO_WIDTH;
    }
    if (c === '\\') return this.escape();
    if (c === '*' || c === '+' || c === '?') {
      this.i++;
      return UNKNOWN;
    }
    this.i++;
    return this.literal(c.charCodeAt(0));
  }

  private literal(code: number): Info {
    return single(bit(code > 255 ? HIGH_CLASS : CLASS_OF[code]!));
  }

  private group(): Info {
    const p = this.p;
    this.i++;
    let zeroWidth = false;
    if (p.startsWith('?:', this.i)) this.i += 2;
    else if (p.startsWith('?=', this.i) || p.startsWith('?!', this.i)) {
      zeroWidth = true;
      this.i += 2;
    } else if (p.startsWith('?<=', this.i) || p.startsWith('?<!', this.i)) {
      zeroWidth = true;
      this.i += 3;
    } else if (p.startsWith('?<', this.i)) {
      const end = p.indexOf('>', this.i);
      if (end < 0) return this.giveUp();
      this.i = end + 1;
    } else if (p[this.i] === '?') return this.giveUp();
    const inner = this.alternation();
    if (p[this.i] !== ')') return this.giveUp();
    this.i++;
    return zeroWidth ? ZERO_WIDTH : inner;
  }

  /** Stops the analysis: the rest of the pattern is not understood. */
  private giveUp(): Info {
    this.failed = true;
    this.i = this.p.length;
    return UNKNOWN;
  }

  private escape(): Info {
    const p = this.p;
    const n = p[this.i + 1];
    if (n === undefined) return this.giveUp();
    this.i += 2;
    if (n === 'b' || n === 'B') return ZERO_WIDTH;
    const set = byteSetOfEscape(n);
    if (set) return single(maskOfBytes(set));
    if (n === 'x') {
      const hex = p.slice(this.i, this.i + 2);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return this.giveUp();
      this.i += 2;
      return this.literal(Number.parseInt(hex, 16));
    }
    if (n === 'u') {
      const hex = p.slice(this.i, this.i + 4);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) return this.giveUp();
      this.i += 4;
      return this.literal(Number.parseInt(hex, 16));
    }
    if (SIMPLE_ESCAPES[n] !== undefined) return this.literal(SIMPLE_ESCAPES[n]!);
    if (n === '0' && !/[0-9]/.test(p[this.i] ?? '')) return this.literal(0);
    // backreferences, octal escapes, \c, \k<name>, \p…: may match anything or nothing
    if (/[0-9a-zA-Z]/.test(n)) {
      if (n === 'k' && p[this.i] === '<') {
        const end = p.indexOf('>', this.i);
        if (end < 0) return this.giveUp();
        this.i = end + 1;
      } else if (n === 'c' && /[a-zA-Z]/.test(p[this.i] ?? '')) this.i++;
      return UNKNOWN;
    }
    return this.literal(n.charCodeAt(0));
  }

  /** One character of a class; returns its code, or -1 when it is a set escape (already added). */
  private classChar(set: Uint8Array): number {
    const p = this.p;
    const c = p[this.i]!;
    if (c !== '\\') {
      this.i++;
      return c.charCodeAt(0);
    }
    const n = p[this.i + 1];
    if (n === undefined) throw new GiveUp();
    this.i += 2;
    const esc = byteSetOfEscape(n);
    if (esc) {
      for (let b = 0; b < 256; b++) if (esc[b] === 1) set[b] = 1;
      return -1;
    }
    if (n === 'x' || n === 'u') {
      const len = n === 'x' ? 2 : 4;
      const hex = p.slice(this.i, this.i + len);
      if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) throw new GiveUp();
      this.i += len;
      return Number.parseInt(hex, 16);
    }
    if (SIMPLE_ESCAPES[n] !== undefined) return SIMPLE_ESCAPES[n]!;
    if (n === 'b') return 8;
    if (n === '0' && !/[0-9]/.test(p[this.i] ?? '')) return 0;
    if (/[0-9a-zA-Z]/.test(n)) throw new GiveUp();
    return n.charCodeAt(0);
  }

  private charClass(): Info {
    const p = this.p;
    const start = this.i;
    this.i++;
    const negated = p[this.i] === '^';
    if (negated) this.i++;
    const set = new Uint8Array(256);
    let wide = false;
    try {
      while (this.i < p.length && p[this.i] !== ']') {
        const from = this.classChar(set);
        if (from < 0) continue;
        let to = from;
        if (p[this.i] === '-' && p[this.i + 1] !== ']' && this.i + 1 < p.length) {
          this.i++;
          to = this.classChar(set);
          if (to < 0) {
            // `[a-\d]`: the '-' is a literal
            set[45] = 1;
            to = from;
          } else if (to < from) throw new GiveUp();
        }
        if (to > 255) wide = true;
        set.fill(1, from, Math.min(to, 255) + 1);
      }
      if (p[this.i] !== ']') throw new GiveUp();
      this.i++;
    } catch (err) {
      if (!(err instanceof GiveUp)) throw err;
      this.i = start;
      return this.giveUp();
    }
    if (negated) {
      for (let c = 0; c < 256; c++) set[c] = set[c] === 1 ? 0 : 1;
    } else if (wide) {
      // a character above 0xFF may match a byte ≥ 0x80 case-insensitively
      set.fill(1, 0x80, 256);
    }
    return single(maskOfBytes(set));
  }
}

class GiveUp extends Error {}

/** A compiled prefilter: pairs (lo, hi) of class masks; a value must hit each of them. */
export type Prefilter = Int32Array;

function pack(masks: readonly Mask[]): Prefilter | undefined {
  const kept = best(masks, MAX_MASKS).filter((m) => cost(m) <= MAX_COST);
  if (kept.length === 0) return undefined;
  const out = new Int32Array(kept.length * 2);
  kept.forEach((m, k) => {
    out[2 * k] = m.lo;
    out[2 * k + 1] = m.hi;
  });
  return out;
}

/** The prefilter of a translated regex, or undefined when none is worth checking. */
export function regexPrefilter(re: RegExp): Prefilter | undefined {
  if (re.flags.includes('u') || re.flags.includes('v') || re.flags.includes('y')) return undefined;
  const info = new Analyzer(re.source).run();
  if (info.nullable) return undefined;
  return pack([...info.req, info.first]);
}

/** The prefilter of a case-insensitive phrase list (`@pm`), or undefined. */
export function phrasePrefilter(phrases: readonly string[]): Prefilter | undefined {
  const perPhrase: number[][] = [];
  for (const phrase of phrases) {
    if (phrase.length === 0) return undefined;
    const classes = new Set<number>();
    let wide = false;
    for (let i = 0; i < phrase.length; i++) {
      const c = phrase.charCodeAt(i);
      if (c > 255) wide = true;
      else classes.add(CLASS_OF[c]!);
    }
    if (wide) continue; // such a phrase never matches (see AhoCorasick)
    perPhrase.push([...classes].sort((a, b) => WEIGHT[a]! - WEIGHT[b]!));
  }
  if (perPhrase.length === 0) return undefined;
  const masks: Mask[] = [];
  for (let k = 0; k < KEEP; k++) {
    let m = EMPTY;
    for (const classes of perPhrase) m = or(m, bit(classes[Math.min(k, classes.length - 1)]!));
    masks.push(m);
  }
  return pack(masks);
}

/** A prefilter requiring one of `chars` (exactly as given: a letter stands for both cases). */
export function anyOfPrefilter(chars: string): Prefilter {
  const [lo, hi] = classBits(chars);
  return Int32Array.of(lo, hi);
}

/** Class bits of `s`: [lo, hi]; all bits when `s` holds a character above 0xFF. */
export function classBits(s: string): [number, number] {
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 255) return [-1, -1];
    const k = CLASS_OF[c]!;
    if (k < 32) lo |= 1 << k;
    else hi |= 1 << (k - 32);
  }
  return [lo, hi];
}

/** True when class bits (lo, hi) hit every mask of the prefilter. */
export function passes(pre: Prefilter, lo: number, hi: number): boolean {
  for (let k = 0; k < pre.length; k += 2) {
    if (((pre[k]! & lo) | (pre[k + 1]! & hi)) === 0) return false;
  }
  return true;
}
