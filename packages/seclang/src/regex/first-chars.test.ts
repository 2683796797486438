import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstChars, mayMatch } from './first-chars.ts';
import { compilePcre } from './translate.ts';

const PATTERNS = [
  '(?i)<script[^>]*>',
  '[\'";=]',
  '\\bunion\\b\\s+select',
  '(?:\\.\\./|%2e%2e)',
  '^[\\d.:]+$',
  '(?i:on\\w+)\\s*=',
  '[^a-z]x',
  'a{2,}b',
  '(?<!&)#\\d',
];

describe('first-character prefilter', () => {
  it('gives up on patterns that can match the empty string', () => {
    expect(firstChars(compilePcre('a*'))).toBeUndefined();
    expect(firstChars(compilePcre('(?:x|)'))).toBeUndefined();
    expect(firstChars(compilePcre('^$'))).toBeUndefined();
  });

  it('keeps the bytes a match can start with', () => {
    const set = firstChars(compilePcre('[\'";=]'))!;
    expect(mayMatch(set, 'plain text')).toBe(false);
    expect(mayMatch(set, "it's")).toBe(true);
  });

  it('never rules out an input the regex matches', () => {
    const compiled = PATTERNS.map((p) => compilePcre(p)).map((re) => ({ re, set: firstChars(re) }));
    fc.assert(
      fc.property(
        fc.string({
          maxLength: 40,
          unit: fc.constantFrom(...'<>sScriptuniosel ON=;\'"./%2e#&&&dx0123459a b'),
        }),
        (s) => {
          for (const { re, set } of compiled) if (set && re.test(s)) expect(mayMatch(set, s)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
