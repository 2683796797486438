import { detectSQLi } from '@cairn/seclang';
import { firstMatch } from './readings.ts';
import type { AttackMatcher } from './types.ts';

/**
 * Time-based probes and stacked statements that a fingerprint of one value can miss: a sleep or
 * benchmark call, WAITFOR DELAY, and a stacked SELECT/EXEC after a quote or a number.
 */
const TIMING =
  /\b(?:sleep|pg_sleep|benchmark|dbms_pipe\.receive_message|randomblob)\s{0,8}\(|\bwaitfor\s{1,8}(?:delay|time)\s{0,8}'/i;

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
