// lowercase: ASCII A–Z to a–z (C-locale tolower; Latin-1 letters stay as they are).
// Example: SecRule ARGS "@rx select" "id:1,t:none,t:lowercase"
import type { TransformationDef } from '../types.ts';

const UPPER = /[A-Z]/;

export const lowercase: TransformationDef = {
  name: 'lowercase',
  transform(input) {
    if (!UPPER.test(input)) return input;
    return input.replace(/[A-Z]+/g, (s) => s.toLowerCase());
  },
};
