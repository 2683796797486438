// The pre-issue-40 detector (pattern rules over its own fingerprints), kept only so that a
// property test can compare decisions with the libinjection-model detector in ../sqli.ts.
// @detectSQLi: reads the value as the tail of an SQL statement three ways — as is, as if spliced
// inside '…', as if spliced inside "…" — folds each into a token-class fingerprint and checks the
// fingerprints against patterns of injected SQL (sqli-patterns.ts).
// Example rule: SecRule ARGS "@detectSQLi" "id:942100,phase:2,block,capture,…"

import { BARE_MATCHER, QUOTED_MATCHER } from './sqli-patterns.ts';
import { sqlFingerprint } from './sqli-tokenizer.ts';

export interface SqliResult {
  match: boolean;
  /** Token classes of the matching reading, e.g. `slnonc` for `x' or 1=1--`. */
  fingerprint?: string;
}

const NO_MATCH: SqliResult = Object.freeze({ match: false });

export function legacyDetectSQLi(input: string): SqliResult {
  if (input.length < 2) return NO_MATCH;
  const bare = sqlFingerprint(input, 0);
  if (BARE_MATCHER.test(bare)) return { match: true, fingerprint: bare };
  if (input.includes("'")) {
    const single = sqlFingerprint(input, 39);
    if (QUOTED_MATCHER.test(single)) return { match: true, fingerprint: single };
  }
  if (input.includes('"')) {
    const double = sqlFingerprint(input, 34);
    if (QUOTED_MATCHER.test(double)) return { match: true, fingerprint: double };
  }
  return NO_MATCH;
}
