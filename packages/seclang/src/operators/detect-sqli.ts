// detectSQLi: our own SQL-injection detector; with `capture`, TX:0 holds its fingerprint.
// Example: SecRule ARGS "@detectSQLi" "id:942100,capture,multiMatch"
import { detectSQLi as detect } from '../detectors/sqli.ts';
import type { OperatorDef, OperatorFn } from '../types.ts';

export const detectSQLi: OperatorDef = {
  name: 'detectSQLi',
  compile: () => {
    const fn: OperatorFn = (tx, input) => {
      const result = detect(input);
      if (result.match && tx.capture) tx.setCapture(0, result.fingerprint ?? '');
      return result.match;
    };
    fn.pure = true;
    return fn;
  },
};
