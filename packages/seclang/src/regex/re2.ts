// Regexes on hostile input run on RE2 (the npm `re2` binding of Google's automaton engine: time linear
// in the input, and nearly independent of the pattern's size). V8's own linear engine (regex/linear.ts)
// is linear too, but costs about 0.4 ns per input character per pattern character: a 4.6 KB CRS
// pattern over a 128 KB body takes ~230 ms there, ~2–6 ms on RE2. On ordinary input V8's backtracking
// engine is faster than RE2 per call (no conversion of the string to UTF-8 on the native side), so:
// - inputs under RE2_MIN_INPUT characters run on V8 (its linear fallback costs microseconds there);
// - inputs of V8_MAX_INPUT characters or more, and inputs of RE2_MIN_INPUT or more for patterns of
//   LARGE_PATTERN characters or more, run on RE2;
// - every other call runs on V8, timed (wall-clock, which is never less than the CPU time it used);
//   once a request's regexes have run V8_BUDGET_MS on V8, its remaining calls run on RE2. This bounds
//   what a request split into many small values (1,000 arguments of 100 characters, each making V8
//   fall back to its linear engine) can cost: 557 ms before, 54 ms with it (bench/waf-worst.ts).
// Regexes RE2 refuses (lookaround, backreferences: 920120, 942130) stay on V8 at every size; what
// each CRS regex gets is in docs/regex-routes.md (made by test/redos/routes.ts).

import RE2 from 're2';

/** Inputs shorter than this run on V8 (measured: faster than RE2 per call on ordinary text). */
export const RE2_MIN_INPUT = 128;
/** Inputs this long or longer run on RE2. */
export const V8_MAX_INPUT = 2048;
/** Patterns this long or longer (after translation) run on RE2 from RE2_MIN_INPUT characters on. */
export const LARGE_PATTERN = 1000;
/** Milliseconds a request's regexes may run on V8 before its remaining calls go to RE2. */
export const V8_BUDGET_MS = 10;

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

/**
 * The engine for `input` (see the top of this file); `work` holds the milliseconds the request's
 * regexes have run on V8 so far (the caller adds each V8 call's time).
 */
export function engineFor(r: RoutedRegex, input: string, work?: { v8RegexMs: number }): RegExp | Re2Regex {
  if (r.big === undefined) return r.re;
  const n = input.length;
  const m = r.re.source.length;
  if (n >= RE2_MIN_INPUT && (n >= V8_MAX_INPUT || m >= LARGE_PATTERN)) return r.big;
  if (work && work.v8RegexMs > V8_BUDGET_MS) return r.big;
  return r.re;
}
