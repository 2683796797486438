import { detectSQLi } from '@cairn/seclang';
import { firstMatch } from './readings.ts';
import type { AttackMatcher } from './types.ts';

/**
 * Time-based probes and stacked statements that a fingerprint of one value can miss: a sleep or
 * benchmark call, WAITFOR DELAY, and a stacked SELECT/EXEC after a quote or a number.
 */
const TIMING =
  /\b(?:sleep|pg_sleep|benchmark|dbms_pipe\.receive_message|randomblob)\s{0,8}\(|\bwaitfor\s{1,8}(?:delay|time)\s{0,8}'/i;

/** SQL injection: the seclang detector's fingerprint (libinjection's method), or a timing probe. */
export const sqli: AttackMatcher = (value) =>
  firstMatch(value, (reading) => {
    const result = detectSQLi(reading);
    if (result.match) return `fingerprint ${result.fingerprint ?? ''}`;
    const timing = TIMING.exec(reading);
    return timing ? timing[0] : undefined;
  });
