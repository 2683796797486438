// PCRE → JavaScript RegExp translation, done once at load time.
// Rewrites: case-insensitivity (`(?i)`, `(?i:…)`) → letters expanded to [xX] (PCRE folds ASCII
// only, and V8's linear engine refuses the i flag); possessive quantifiers → greedy; `\z` `\A` →
// `$` `^` (exact without the m flag), `\Z` → a lookahead; PCRE's ASCII `\s` (JS `\s` also
// matches U+00A0 and friends); `\x{hh}`, `\e`, `\Q…\E`, POSIX classes, atomic and `(?P<name>`
// groups; bounded repeats over 16 split into runs of at most 16 (the linear engine's limit); a
// leading lazy `[…]*?` dropped.
// Flag `s` always: ModSecurity v2 compiles with DOTALL and DOLLAR_ENDONLY, which JS `$` already is.
// A pattern with a backreference keeps the i flag: `\1` must compare without case, and no linear
// engine runs it anyway (see regex/linear.ts).

import { RuleCompileError } from '../errors.ts';
import { linearEngine } from './linear.ts';
import { re2Of } from './re2.ts';

export interface TranslatedRegex {
  readonly source: string;
  readonly flags: string;
}

const SPACE_CHARS = '\\t\\n\\v\\f\\r ';

const POSIX: Record<string, string> = {
  alpha: 'a-zA-Z',
  digit: '0-9',
  alnum: 'a-zA-Z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: SPACE_CHARS,
  blank: ' \\t',
  xdigit: '0-9A-Fa-f',
  word: '\\w',
  punct: '!-\\/:-@\\[-`{-~',
  cntrl: '\\x00-\\x1f\\x7f',
  print: '\\x20-\\x7e',
  graph: '\\x21-\\x7e',
};

function isLetter(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

function otherCase(c: string): string {
  return c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
}

function hexEscape(code: number): string {
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

function escapeLiteral(c: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}

/** Index of the `)` closing the group opened at `start`, or -1. */
export function closingParen(p: string, start: number): number {
  let depth = 0;
  for (let i = start; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      i++;
    } else if (c === '[') {
      i = classEnd(p, i);
    } else if (c === '(') {
      depth++;
    } else if (c === ')') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** Index of the `]` that closes the class opened at `start`. */
function classEnd(p: string, start: number): number {
  let i = start + 1;
  if (p[i] === '^') i++;
  if (p[i] === ']') i++;
  for (; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') i++;
    else if (c === '[' && p[i + 1] === ':') {
      const end = p.indexOf(':]', i + 2);
      if (end > 0) i = end + 1;
    } else if (c === ']') return i;
  }
  throw new RuleCompileError(`unterminated character class at offset ${start}`);
}

/** Reads `\x{…}` or `\xhh` at `i` (pointing at the backslash); returns [code, next index]. */
function readHex(p: string, i: number): [number, number] {
  if (p[i + 2] === '{') {
    const end = p.indexOf('}', i + 3);
    if (end < 0) throw new RuleCompileError('unterminated \\x{…}');
    return [Number.parseInt(p.slice(i + 3, end), 16), end + 1];
  }
  let j = i + 2;
  let hex = '';
  while (j < p.length && hex.length < 2 && /[0-9a-fA-F]/.test(p[j]!)) hex += p[j++];
  return [hex ? Number.parseInt(hex, 16) : 0, j];
}

function translateClass(p: string, start: number, ci: boolean): [string, number] {
  const end = classEnd(p, start);
  let out = '[';
  let i = start + 1;
  if (p[i] === '^') {
    out += '^';
    i++;
  }
  if (p[i] === ']') {
    out += '\\]';
    i++;
  }
  const extra: string[] = [];
  while (i < end) {
    const c = p[i]!;
    if (c === '\\') {
      const n = p[i + 1]!;
      if (n === 's') out += SPACE_CHARS;
      else if (n === 'x') {
        const [code, next] = readHex(p, i);
        out += hexEscape(code);
        if (ci && isLetter(String.fromCharCode(code))) extra.push(otherCase(String.fromCharCode(code)));
        i = next;
        continue;
      } else if (n === 'e') out += '\\x1b';
      else if (n === 'a') out += '\\x07';
      else out += `\\${n}`;
      i += 2;
      continue;
    }
    if (c === '[' && p[i + 1] === ':') {
      const close = p.indexOf(':]', i + 2);
      const name = p.slice(i + 2, close);
      const expansion = POSIX[name];
      if (expansion === undefined) throw new RuleCompileError(`unsupported POSIX class [:${name}:]`);
      out += expansion;
      i = close + 2;
      continue;
    }
    if (c === '[') {
      out += '\\[';
      i++;
      continue;
    }
    if (ci && isLetter(c)) {
      if (p[i + 1] === '-' && i + 2 < end && isLetter(p[i + 2]!)) {
        const to = p[i + 2]!;
        out += `${c}-${to}`;
        if ((c >= 'a' && to <= 'z') || (c >= 'A' && c <= 'Z' && to <= 'Z')) {
          extra.push(`${otherCase(c)}-${otherCase(to)}`);
        }
        i += 3;
        continue;
      }
      out += c;
      extra.push(otherCase(c));
      i++;
      continue;
    }
    out += c;
    i++;
  }
  return [`${out}${extra.join('')}]`, end + 1];
}

/** Decides whether the whole pattern is case-insensitive; returns the start offset of the rest. */
function globalCaseless(p: string): { caseless: boolean; prefix: string; body: string } {
  if (p.startsWith('(?i)')) return { caseless: true, prefix: '', body: p.slice(4) };
  if (p.startsWith('^(?i)')) return { caseless: true, prefix: '^', body: p.slice(5) };
  if (p.startsWith('(?i:') && closingParen(p, 0) === p.length - 1) {
    return { caseless: true, prefix: '', body: `(?:${p.slice(4)}` };
  }
  return { caseless: false, prefix: '', body: p };
}

const BACKREFERENCE = /\\[1-9]|\\k</;

/** PCRE escapes whose JavaScript spelling differs; any other escape is written as it is. */
const ESCAPES: Record<string, string> = {
  s: `[${SPACE_CHARS}]`,
  S: `[^${SPACE_CHARS}]`,
  z: '$',
  Z: '(?=\\n?$)',
  A: '^',
  h: '[\\t \\xa0]',
  e: '\\x1b',
  a: '\\x07',
};

const UNSUPPORTED_ESCAPES = new Set(['G', 'K', 'R', 'X', 'C']);

/** Inline flags that change case-insensitivity for the rest of the enclosing group. */
const CASE_SWITCHES: readonly [string, boolean][] = [
  ['(?i)', true],
  ['(?-i)', false],
];

/** Group openers and what each becomes; `ci` says how the group's case-insensitivity changes. */
const GROUP_OPENERS: readonly { pcre: string; js: string; ci?: boolean }[] = [
  { pcre: '(?i:', js: '(?:', ci: true },
  { pcre: '(?-i:', js: '(?:', ci: false },
  { pcre: '(?>', js: '(?:' }, // atomic → plain group
  { pcre: '(?P<', js: '(?<' },
];

/**
 * One pass over a PCRE pattern, writing its JavaScript form: each construct is a step that reads
 * from `i` and appends to `out`. `ci` is whether letters are expanded to `[xX]` at this point.
 */
class PcreTranslation {
  out: string;
  i = 0;
  ci: boolean;
  private readonly stack: boolean[] = [];

  constructor(
    private readonly p: string,
    prefix: string,
    ci: boolean,
    private readonly useFlag: boolean,
  ) {
    this.out = prefix;
    this.ci = ci;
  }

  run(): string {
    const { p } = this;
    while (this.i < p.length) {
      const c = p[this.i]!;
      if (c === '\\') this.escape();
      else if (c === '[') this.characterClass();
      else if (c === '(') this.openGroup();
      else if (c === ')') this.closeGroup();
      else if (c === '*' || c === '+' || c === '?') this.quantifier(c);
      else if (c === '{') this.countedRepeat();
      else this.literal(c);
    }
    return this.out;
  }

  private letter(ch: string, plain: string): string {
    return this.ci && isLetter(ch) ? `[${ch}${otherCase(ch)}]` : plain;
  }

  private escape(): void {
    const { p, i } = this;
    const n = p[i + 1];
    if (n === undefined) throw new RuleCompileError('pattern ends with a backslash');
    if (n === 'x') {
      const [code, next] = readHex(p, i);
      const ch = String.fromCharCode(code);
      this.out += this.letter(ch, hexEscape(code));
      this.i = next;
      return;
    }
    if (n === 'Q') {
      const end = p.indexOf('\\E', i + 2);
      for (const ch of p.slice(i + 2, end < 0 ? p.length : end))
        this.out += this.letter(ch, escapeLiteral(ch));
      this.i = end < 0 ? p.length : end + 2;
      return;
    }
    if (UNSUPPORTED_ESCAPES.has(n)) throw new RuleCompileError(`unsupported PCRE escape \\${n}`);
    this.out += ESCAPES[n] ?? `\\${n}`;
    this.i += 2;
  }

  private characterClass(): void {
    const [cls, next] = translateClass(this.p, this.i, this.ci);
    this.out += cls;
    this.i = next;
  }

  private openGroup(): void {
    const { p, i } = this;
    for (const [flag, on] of CASE_SWITCHES) {
      if (p.startsWith(flag, i)) {
        this.ci = on && !this.useFlag;
        this.i += flag.length;
        return;
      }
    }
    if (p.startsWith('(?s)', i)) {
      this.i += 4;
      return;
    }
    if (p.startsWith('(?#', i)) {
      const end = p.indexOf(')', i);
      if (end < 0) throw new RuleCompileError('unterminated comment (?#');
      this.i = end + 1;
      return;
    }
    this.stack.push(this.ci);
    const opener = GROUP_OPENERS.find((g) => p.startsWith(g.pcre, i));
    if (opener) {
      if (opener.ci !== undefined) this.ci = opener.ci && !this.useFlag;
      this.out += opener.js;
      this.i += opener.pcre.length;
      return;
    }
    if (p[i + 1] === '?' && !/[:=!<]/.test(p[i + 2] ?? '')) {
      throw new RuleCompileError(`unsupported group syntax ${p.slice(i, i + 4)}`);
    }
    this.out += '(';
    this.i++;
  }

  private closeGroup(): void {
    this.ci = this.stack.pop() ?? false;
    this.out += ')';
    this.i++;
  }

  /** `*`, `+`, `?`; a possessive `+` after one becomes greedy. */
  private quantifier(c: string): void {
    this.out += c;
    this.i++;
    if (this.p[this.i] === '+') this.i++;
  }

  /** `{m}`, `{m,}`, `{m,n}` (possessive → greedy); any other `{` is a literal brace. */
  private countedRepeat(): void {
    const m = /^\{\d+(?:,\d*)?\}/.exec(this.p.slice(this.i, this.i + 24));
    if (!m) {
      this.out += '\\{';
      this.i++;
      return;
    }
    this.out += m[0];
    this.i += m[0].length;
    if (this.p[this.i] === '+') this.i++;
  }

  private literal(c: string): void {
    this.out += this.letter(c, c);
    this.i++;
  }
}

/**
 * Translates `pattern`; `caseless` makes the whole pattern case-insensitive (as `(?i)` would).
 */
export function translatePcre(pattern: string, caseless = false): TranslatedRegex {
  const global = globalCaseless(pattern);
  // A backreference compares case-insensitively only under the i flag.
  const useFlag = (caseless || global.caseless) && BACKREFERENCE.test(pattern);
  const ci = (caseless || global.caseless) && !useFlag;
  const out = new PcreTranslation(global.body, global.prefix, ci, useFlag).run();
  return { source: dropLeadingLazy(splitLargeRepeats(out)), flags: useFlag ? 'is' : 's' };
}

/**
 * `[…]*?` at the very start of a pattern (942130: `(?:[\s'"`()]*?\b([\d\w]+)…`) can match nothing,
 * so a match exists exactly when one exists without it; dropping it spares a scan of the whole run
 * from each of its positions (quadratic). Only the start of TX:0 changes (the leading run is left out).
 */
function dropLeadingLazy(src: string): string {
  return src.replace(/^((?:\(\?:)*)\[(?:[^\]\\]|\\.)*\]\*\?/, '$1');
}

/** The largest bounded repeat V8's linear engine accepts. */
const MAX_REPEAT = 16;

/**
 * `X{m,n}` without counted repeats V8's linear engine refuses: a single character as runs of at
 * most MAX_REPEAT (`X{16}X{4}`), a group written out (`XX(?:X)?(?:X)?`). The same strings match.
 */
function splitRepeat(atom: string, min: number, max: number, lazy: string): string {
  const group = atom.startsWith('(');
  const step = group ? 1 : MAX_REPEAT;
  let out = '';
  for (let left = min; left > 0; left -= step) out += group ? atom : `${atom}{${Math.min(left, step)}}`;
  if (max === Number.POSITIVE_INFINITY) return `${out}${atom}*${lazy}`;
  for (let left = max - min; left > 0; left -= step) {
    out += group ? `${atom}?${lazy}` : `${atom}{0,${Math.min(left, step)}}${lazy}`;
  }
  return out;
}

/** A counted repeat the linear engine refuses: over MAX_REPEAT, or of a group with quantifiers. */
function needsSplit(atom: string, min: number, max: number): boolean {
  const plain = atom.replace(/\\./g, '').replace(/\[[^\]]*\]/g, '');
  if (/\((?!\?)/.test(plain)) return false; // copies would renumber capturing groups
  const inner = plain.replace(/\(\?(?:[:=!]|<[=!])/g, '(');
  if (min > MAX_REPEAT || (max > MAX_REPEAT && max !== Number.POSITIVE_INFINITY)) return true;
  return atom.startsWith('(') && /[*+?{]/.test(inner) && max !== Number.POSITIVE_INFINITY;
}

/**
 * Rewrites bounded repeats over MAX_REPEAT in a translated source into runs that V8's linear
 * engine accepts. Only atoms without capturing groups are split (a copy would renumber groups).
 */
export function splitLargeRepeats(src: string): string {
  let out = '';
  let atomStart = -1; // offset in `out` of the last complete atom
  const groups: number[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === '\\') {
      const len = src[i + 1] === 'x' ? 4 : src[i + 1] === 'u' ? 6 : 2;
      atomStart = out.length;
      out += src.slice(i, i + len);
      i += len;
    } else if (c === '[') {
      const end = jsClassEnd(src, i);
      atomStart = out.length;
      out += src.slice(i, end + 1);
      i = end + 1;
    } else if (c === '(') {
      groups.push(out.length);
      out += c;
      i++;
      atomStart = -1;
    } else if (c === ')') {
      atomStart = groups.pop() ?? -1;
      out += c;
      i++;
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}(\??)/.exec(src.slice(i, i + 24));
      if (!m || atomStart < 0) {
        out += c;
        i++;
        continue;
      }
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : m[3] === '' ? Number.POSITIVE_INFINITY : Number(m[3]);
      const atom = out.slice(atomStart);
      if (needsSplit(atom, min, max) && (!atom.startsWith('(') || (max - min <= 64 && min <= 64))) {
        out = out.slice(0, atomStart) + splitRepeat(atom, min, max, m[4]!);
      } else out += m[0];
      i += m[0].length;
      atomStart = -1;
    } else {
      atomStart = c === '|' || c === '*' || c === '+' || c === '?' ? -1 : out.length;
      out += c;
      i++;
    }
  }
  return out;
}

/** Index of the `]` closing the JS class opened at `start` (no POSIX classes any more). */
function jsClassEnd(src: string, start: number): number {
  let i = start + 1;
  if (src[i] === '^') i++;
  for (; i < src.length; i++) {
    if (src[i] === '\\') i++;
    else if (src[i] === ']') return i;
  }
  return src.length - 1;
}

const cache = new Map<string, RegExp>();

/** Translates and compiles a PCRE pattern; identical patterns share one RegExp. */
export function compilePcre(pattern: string, caseless: '' | 'i' = ''): RegExp {
  const key = `${caseless}/${pattern}`;
  const hit = cache.get(key);
  if (hit) return hit;
  linearEngine();
  const { source, flags } = translatePcre(pattern, caseless === 'i');
  let re: RegExp;
  try {
    re = new RegExp(source, flags);
  } catch (err) {
    throw new RuleCompileError(`regex does not compile: ${(err as Error).message}`);
  }
  cache.set(key, re);
  return re;
}

/**
 * Runs every compiled pattern a few times: V8 compiles a regex on its first executions, which
 * for the largest CRS patterns costs milliseconds that would otherwise land on the first requests;
 * RE2 compiles each pattern (and starts its DFA) on a large sample.
 */
export function warmUpRegexes(): void {
  const large = 'Warm Up <b>x</b>=1&y=../2 select a from b; cat /etc/x '.repeat(4);
  for (const re of cache.values()) {
    for (const sample of ['', 'warm-up value 1', 'Warm Up <b>x</b>=1&y=../2']) {
      re.test(sample);
      re.test(sample);
    }
    const big = re2Of(re);
    if (typeof big !== 'string') big.test(large);
  }
}
