import { describe, expect, it } from 'vitest';
import { compilePcre, translatePcre } from './translate.ts';

describe('PCRE → JS translation', () => {
  it('turns a leading or whole-pattern (?i) into the i flag', () => {
    expect(translatePcre('(?i)abc')).toEqual({ source: 'abc', flags: 'is' });
    expect(translatePcre('^(?i)abc').source).toBe('^abc');
    expect(translatePcre('(?i:a|b)').flags).toBe('is');
  });

  it('expands scoped (?i:…) letters, in and out of classes', () => {
    const re = compilePcre('x(?i:ab[c-d])Y');
    expect(re.test('xABDY')).toBe(true);
    expect(re.test('XABDY')).toBe(false);
    expect(re.test('xabcy')).toBe(false);
  });

  it('rewrites possessive quantifiers, \\z, \\A and PCRE \\s', () => {
    expect(compilePcre('a++b').test('aab')).toBe(true);
    expect(compilePcre('a\\z').test('ba')).toBe(true);
    expect(compilePcre('a\\z').test('a\n')).toBe(false);
    expect(compilePcre('\\Aa').test('ba')).toBe(false);
    expect(compilePcre('\\s').test('\u00a0')).toBe(false);
    expect(compilePcre('\\s').test('\v')).toBe(true);
  });

  it('handles \\x{…}, POSIX classes, atomic groups and a leading ] in a class', () => {
    expect(compilePcre('\\x{41}').test('A')).toBe(true);
    expect(compilePcre('[[:alpha:]]+').test('12ab')).toBe(true);
    expect(compilePcre('(?>ab)c').test('abc')).toBe(true);
    expect(compilePcre('[]a]').test(']')).toBe(true);
  });

  it('uses DOTALL and end-only $ (ModSecurity v2)', () => {
    expect(compilePcre('a.b').test('a\nb')).toBe(true);
    expect(compilePcre('^a$').test('a\n')).toBe(false);
  });

  it('names the problem for constructs JS cannot express', () => {
    expect(() => compilePcre('a\\Kb')).toThrow(/unsupported PCRE escape/);
    expect(() => compilePcre('(?|a)')).toThrow(/unsupported group/);
  });
});
