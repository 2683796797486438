import { detectSQLi } from '@cairn/seclang';
import { firstMatch } from './readings.ts';
import type { AttackMatcher } from './types.ts';

/**
 * Time-based probes that a fingerprint of one value can miss: a sleep or benchmark call, WAITFOR DELAY,
 * with spaces or inline comments between the words (sqlmap's and wapiti's `waitfor` + comment + `delay`).
 */
const GAP = String.raw`(?:\s|/\*[^*]{0,64}\*/)`;
const TIMING = new RegExp(
  String.raw`\b(?:sleep|pg_sleep|benchmark|dbms_pipe\.receive_message|randomblob)${GAP}{0,8}\(|\bwaitfor${GAP}{1,8}(?:delay|time)${GAP}{0,8}'`,
  'i',
);

/**
 * Error-based probing: both quote kinds side by side against a parenthesis (wapiti's `'"(`, sqlmap's
 * heuristic `'.)(,"` family), which breaks any SQL string or call it lands in and no text writes.
 */
const QUOTE_PROBE = /'"[()]|"'[()]|[()]'"|[()]"'/;

/**
 * SQL keywords each after a line comment that hides the space before it (sqlmap's space2dash:
 * `--random\nWHERE--random\n3291=3291`). Two of them are an injection; one can be prose.
 */
const COMMENTED_KEYWORD =
  /--[^\n]{0,64}\n[\s(]{0,8}(?:and|or|xor|not|where|select|union|from|case|when|then|else|end|having|order|group|limit|declare|set|waitfor|exec|execute|into|like|between|rlike|regexp|delay|char|chr|cast|convert|concat|exists|null|dual|sleep|benchmark|substring|ascii|@@?\w+)\b/gi;

function commentedKeywords(value: string): string | undefined {
  if (!value.includes('--')) return undefined;
  let count = 0;
  for (const m of value.matchAll(COMMENTED_KEYWORD)) if (++count === 2) return m[0];
  return undefined;
}

const CHAFF = new Set(["'", '"', '(', ')', ',', '.']);

/**
 * sqlmap's heuristic probe: a run of at least 8 of `'"(),.` holding both quote kinds (it draws 10 such
 * characters with one of each quote), which makes the database answer with an error. Text has no such run.
 */
function heuristicProbe(value: string): string | undefined {
  let start = 0;
  let single = false;
  let double = false;
  for (let i = 0; i <= value.length; i++) {
    const c = value[i];
    if (c !== undefined && CHAFF.has(c)) {
      if (c === "'") single = true;
      else if (c === '"') double = true;
      continue;
    }
    if (i - start >= 8 && single && double) return value.slice(start, i);
    start = i + 1;
    single = false;
    double = false;
  }
  return undefined;
}

/** SQL injection: the seclang detector's fingerprint (libinjection's method), a timing probe, or an error-based probe. */
export const sqli: AttackMatcher = (value) =>
  firstMatch(value, (reading) => {
    const result = detectSQLi(reading);
    if (result.match) return `fingerprint ${result.fingerprint ?? ''}`;
    return (
      (TIMING.exec(reading) ?? QUOTE_PROBE.exec(reading))?.[0] ??
      heuristicProbe(reading) ??
      commentedKeywords(reading)
    );
  });
