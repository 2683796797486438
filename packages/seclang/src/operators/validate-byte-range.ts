// validateByteRange: matches when the input holds a byte outside the allowed ranges.
// Argument: `32-36,38-126`. Example: SecRule ARGS "@validateByteRange 1-255" "id:1"
import { RuleCompileError } from '../errors.ts';
import type { OperatorDef, OperatorFn } from '../types.ts';

export const validateByteRange: OperatorDef = {
  name: 'validateByteRange',
  compile(arg) {
    const allowed = new Uint8Array(256);
    for (const part of arg.split(',')) {
      const m = /^\s*(\d+)(?:\s*-\s*(\d+))?\s*$/.exec(part);
      if (!m) throw new RuleCompileError(`bad byte range "${part}"`);
      const from = Number(m[1]);
      const to = m[2] === undefined ? from : Number(m[2]);
      if (from > 255 || to > 255 || from > to) throw new RuleCompileError(`bad byte range "${part}"`);
      allowed.fill(1, from, to + 1);
    }
    const fn: OperatorFn = (_tx, input) => {
      for (let i = 0; i < input.length; i++) {
        const c = input.charCodeAt(i);
        if (c > 255 || allowed[c] === 0) return true;
      }
      return false;
    };
    fn.pure = true;
    return fn;
  },
};
