// Large inputs go to RE2 (the npm `re2` binding, Google's automaton engine: a lazily built DFA, so
// time linear in the input and nearly independent of the pattern's size). V8's own linear engine
// (regex/linear.ts) is also linear, but costs about 0.4 ns per input byte per pattern character: a
// 4.6 KB CRS pattern over a 128 KB body takes ~230 ms there and ~2 ms on RE2. Small inputs stay on
// V8's backtracking engine, which is faster per call (no string conversion into the native side);
// with at most RE2_MIN_INPUT characters, even its linear fallback is bounded by a few microseconds
// per call. Regexes RE2 refuses (lookaround, backreferences) stay on V8 at every size; which
// regexes those are, and why each is still bounded, is in docs/regex-routes.md (made by
// test/redos/routes.ts).

import RE2 from 're2';

/**
 * Inputs of at least this many characters go to RE2 (measured: V8 is faster below ~128 characters
 * on ordinary input, RE2 from ~128 on, and far faster once V8's linear fallback runs).
 */
export const RE2_MIN_INPUT = 128;

export type Re2Regex = InstanceType<typeof RE2>;

const compiled = new WeakMap<RegExp, Re2Regex | string>();

/**
 * RE2's compilation of `re` (same source and flags), or why RE2 refuses it. RE2 matches the
 * same strings for the translated CRS patterns: both see a latin1 string as code points 0–255,
 * `\w` `\d` `\b` are ASCII in both, `.` with the s flag matches every character, `$` only at the end.
 */
export function re2Of(re: RegExp): Re2Regex | string {
  const hit = compiled.get(re);
  if (hit !== undefined) return hit;
  let out: Re2Regex | string;
  try {
    out = new RE2(re.source, re.flags);
  } catch (err) {
    out = (err as Error).message;
  }
  compiled.set(re, out);
  return out;
}

/** A regex that runs on V8 for small inputs and on RE2 (when RE2 accepts it) for large ones. */
export interface RoutedRegex {
  readonly re: RegExp;
  /** RE2's compilation, undefined when RE2 refuses the pattern. */
  readonly big: Re2Regex | undefined;
}

export function routed(re: RegExp): RoutedRegex {
  const big = re2Of(re);
  return { re, big: typeof big === 'string' ? undefined : big };
}

/** The engine for `input`: RE2 for large inputs when it accepts the pattern, V8 otherwise. */
export function engineFor(r: RoutedRegex, input: string): RegExp | Re2Regex {
  return r.big !== undefined && input.length >= RE2_MIN_INPUT ? r.big : r.re;
}
