// The worst-case guarantee for the engine's regexes. V8 runs a regex with its backtracking engine
// (fast on ordinary input) and, once one execution has backtracked BACKTRACKS_BEFORE_FALLBACK
// times, runs it again on its linear-time engine (a breadth-first automaton, O(input × pattern)).
// The switch exists only for regexes the linear engine accepts: no backreferences, no
// lookaround, no i flag (translate.ts expands letters instead), counted repeats of at most 16.
// `linearEngine()` turns the V8 flags on once, before the first regex is compiled, and checks
// that they took effect: without them it throws, so no engine runs without the guarantee.
// What each CRS regex gets is listed in the package README ("Regex worst case").

import { setFlagsFromString } from 'node:v8';
import { cpuMicros } from '../engine/budget.ts';

/** Backtracks of one execution before V8 switches to the linear engine (V8's default: 50,000). */
export const BACKTRACKS_BEFORE_FALLBACK = 1000;

/** The V8 flags the guarantee needs (also given on the command line by bin/cairn.js). */
export const LINEAR_REGEX_FLAGS = [
  '--enable-experimental-regexp-engine',
  '--enable-experimental-regexp-engine-on-excessive-backtracks',
  `--regexp-backtracks-before-fallback=${BACKTRACKS_BEFORE_FALLBACK}`,
] as const;

export class LinearRegexUnavailableError extends Error {
  constructor(detail: string) {
    super(
      `V8's linear regex engine is not available (${detail}); the WAF refuses to run regexes ` +
        `without a worst-case bound. Start node with ${LINEAR_REGEX_FLAGS.join(' ')}`,
    );
    this.name = 'LinearRegexUnavailableError';
  }
}

let checked = false;

/** CPU milliseconds `fn` used on this thread (other threads, such as V8's compilers, don't count). */
function cpuMs(fn: () => void): number {
  const start = cpuMicros();
  fn();
  return (cpuMicros() - start) / 1000;
}

/**
 * Turns the fallback to V8's linear engine on (once per process) and proves it works: a regex
 * with exponential backtracking on 28 characters (seconds of CPU without the fallback; tens of
 * microseconds with it) must end well within 200 ms of this thread's CPU.
 */
export function linearEngine(): void {
  if (checked) return;
  for (const flag of LINEAR_REGEX_FLAGS) setFlagsFromString(flag);
  try {
    // biome-ignore lint/complexity/useRegexLiterals: a literal with the l flag does not parse without the V8 flag
    new RegExp('a', 'l');
  } catch {
    throw new LinearRegexUnavailableError('the l flag is refused');
  }
  const probe = /^(?:a|a)*b$/;
  const ms = cpuMs(() => probe.test('a'.repeat(28)));
  if (ms > 200) throw new LinearRegexUnavailableError(`a backtracking probe took ${ms.toFixed(0)} ms of CPU`);
  checked = true;
}

/** Whether V8's linear engine accepts `re` (so its worst case is linear in the input). */
export function runsLinear(re: RegExp): boolean {
  linearEngine();
  try {
    new RegExp(re.source, `${re.flags}l`);
    return true;
  } catch {
    return false;
  }
}
