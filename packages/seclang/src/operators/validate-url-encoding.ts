// validateUrlEncoding: matches when a `%` is not followed by two hex digits.
// Example: SecRule REQUEST_URI "@validateUrlEncoding" "id:1"
import type { OperatorDef, OperatorFn } from '../types.ts';
import { hexByte } from '../util/bytes.ts';

export function invalidUrlEncoding(input: string): boolean {
  for (let i = input.indexOf('%'); i >= 0; i = input.indexOf('%', i + 1)) {
    if (i + 2 >= input.length || hexByte(input, i + 1) < 0) return true;
    i += 2;
  }
  return false;
}

export const validateUrlEncoding: OperatorDef = {
  name: 'validateUrlEncoding',
  compile: () => {
    const fn: OperatorFn = (_tx, input) => invalidUrlEncoding(input);
    fn.pure = true;
    return fn;
  },
};
