import { describe, expect, it } from 'vitest';
import { compilePcre, translatePcre } from './translate.ts';

describe('PCRE → JS translation', () => {
  it('spells a leading or whole-pattern (?i) out as ASCII letter classes (PCRE folds ASCII only)', () => {
    expect(translatePcre('(?i)abc')).toEqual({ source: '[aA][bB][cC]', flags: 's' });
    expect(translatePcre('^(?i)a[b-c]').source).toBe('^[aA][b-cB-C]');
    expect(translatePcre('(?i:a|b)').flags).toBe('s');
    expect(compilePcre('(?i)sElEcT').test('SELECT')).toBe(true);
    expect(compilePcre('(?i)\\xe0').test('\xc0')).toBe(false);
    expect(compilePcre('(?i)\\x41').test('a')).toBe(true);
  });

  it('keeps the i flag for a pattern with a backreference (\\1 compares without case)', () => {
    expect(translatePcre('(?i)(a)\\1').flags).toBe('is');
    expect(compilePcre('(?i)(a)\\1').test('aA')).toBe(true);
  });

  it('drops a leading lazy class repeat (it can match nothing; scanning it from each position is quadratic)', () => {
    expect(translatePcre('(?:[ "]*?\\bx)').source).toBe('(?:\\bx)');
    expect(translatePcre('^[ "]*?x').source).toBe('^[ "]*?x');
    const payload = '"'.repeat(100_000);
    const started = process.cpuUsage();
    expect(compilePcre('(?i)[\\s"]*?\\b(\\w+)\\b[\\s"]*?=\\1').test(payload)).toBe(false);
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(500);
  });

  it('splits counted repeats the linear engine refuses, matching the same strings', () => {
    expect(translatePcre('.{1,40}?x').source).toBe('.{1}.{0,16}?.{0,16}?.{0,7}?x');
    expect(translatePcre('(?:a-?){3}').source).toBe('(?:a-?)(?:a-?)(?:a-?)');
    expect(translatePcre('(a){20}').source).toBe('(a){20}');
    for (const [p, yes, no] of [
      ['^a{18,20}$', 'a'.repeat(19), 'a'.repeat(21)],
      ['^(?:ab?){2,3}$', 'abab', 'ababab' + 'a'],
      ['^x.{0,20}y', `x${'-'.repeat(20)}y`, `x${'-'.repeat(21)}y`],
    ] as const) {
      expect(compilePcre(p).test(yes)).toBe(true);
      expect(compilePcre(p).test(no)).toBe(false);
    }
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
    // An unterminated comment restarted the scan at the pattern's start: a loop that never ended.
    expect(() => compilePcre('a(?#b')).toThrow(/unterminated comment/);
    expect(compilePcre('a(?#b)c').test('ac')).toBe(true);
  });
});
