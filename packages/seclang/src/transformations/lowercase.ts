// lowercase: ASCII A–Z to a–z (C-locale tolower; Latin-1 letters stay as they are).
// Example: SecRule ARGS "@rx select" "id:1,t:none,t:lowercase"
import type { TransformationDef } from '../types.ts';

const ASCII_UPPER = /[A-Z]/;
const LATIN1_UPPER = /[\xc0-\xde]/;

export function asciiLower(input: string): string {
  if (!ASCII_UPPER.test(input)) return input;
  if (!LATIN1_UPPER.test(input)) return input.toLowerCase();
  return input.replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

export const lowercase: TransformationDef = {
  name: 'lowercase',
  transform: asciiLower,
};
