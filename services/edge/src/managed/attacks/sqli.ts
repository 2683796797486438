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

/** SQL injection: the seclang detector's fingerprint (libinjection's method), a timing probe, or an error-based probe. */
export const sqli: AttackMatcher = (value) =>
  firstMatch(value, (reading) => {
    const result = detectSQLi(reading);
    if (result.match) return `fingerprint ${result.fingerprint ?? ''}`;
    return (TIMING.exec(reading) ?? QUOTE_PROBE.exec(reading))?.[0];
  });
