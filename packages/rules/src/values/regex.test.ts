import { describe, expect, it } from 'vitest';
import { utf8ToBytes } from './bytes.ts';
import { compileRegex } from './regex.ts';

const re = (p: string) => compileRegex(utf8ToBytes(p), 1024).regexp;
function refusal(p: string): string | undefined {
  try {
    compileRegex(p, 1024);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

describe('compileRegex (Rust syntax on byte strings)', () => {
  it('spells (?i) out as ASCII classes (no i flag, so V8 can fall back to its linear engine)', () => {
    const r = re('(?i)sel[a-c]ct\\x41[^q]');
    expect(r.flags).not.toContain('i');
    expect(r.test('SeLbCTaZ')).toBe(true);
    expect(r.test('selectaQ')).toBe(false);
    expect(re('(?i)\\xe9').test('\xc9')).toBe(false); // ASCII only, as the safety check assumes
    expect(re('(?i)[^a-z]').test('Q')).toBe(false);
  });

  it('translates Rust features', () => {
    expect(re('(?P<year>\\d{4})-(?<m>\\d\\d)').exec('2024-05')?.groups).toEqual({ year: '2024', m: '05' });
    expect(re('^a.b$').test('a\rb')).toBe(true);
    expect(re('^a.b$').test('a\nb')).toBe(false);
    expect(re('(?s)^a.b$').test('a\nb')).toBe(true);
    expect(re('(?m)^b$').test('a\nb')).toBe(true);
    expect(re('(?i)abc').test('ABC')).toBe(true);
    expect(re('\\Aab\\z').test('ab')).toBe(true);
    expect(re('(?m)\\Ab').test('a\nb')).toBe(false);
    expect(re('[[:digit:][:upper:]]+').test('A1')).toBe(true);
    expect(re('[]a]').test(']')).toBe(true);
    expect(re('\\x{263A}').test(utf8ToBytes('☺'))).toBe(true);
    expect(re('é+').test(utf8ToBytes('éé'))).toBe(true);
    expect(re('\\s').test('\xa0')).toBe(false);
    expect(re('a/b').test('a/b')).toBe(true);
  });

  it('refuses what Rust regex refuses or what could backtrack catastrophically', () => {
    expect(refusal('(?=a)')).toMatch(/look-around/);
    expect(refusal('\\1')).toMatch(/backreferences/);
    expect(refusal('(a*)*')).toMatch(/catastrophically/);
    expect(refusal('(a|aa)*c')).toMatch(/catastrophically/);
    expect(refusal('(a|ab)*c')).toBeUndefined();
    expect(refusal('(a*b*)*c')).toMatch(/catastrophically/);
    expect(refusal('(?i)select\\s+.*\\s+from')).toMatch(/excessively/);
    expect(refusal('(.*a){3}')).toBeUndefined();
    expect(refusal('(?:a+)+b')).toMatch(/catastrophically/);
    expect(refusal('^(\\w+\\s?)*$')).toMatch(/catastrophically/);
    expect(refusal('.*.*.*=')).toMatch(/excessively/);
    expect(refusal('\\d+\\d+\\d+')).toMatch(/excessively/);
    expect(refusal('\\s*\\s*')).toBeUndefined();
    expect(refusal('[a-z&&[^aeiou]]')).toMatch(/class set/);
    expect(refusal('[é]')).toMatch(/non-ASCII/);
    expect(refusal('(?x) a')).toMatch(/unsupported regex flag x/);
  });

  it('accepts common WAF patterns', () => {
    for (const p of [
      '^/api/v[0-9]+/users/[0-9]+$',
      '(?i)(union\\s+select|select\\s.*\\sfrom)',
      '<script[^>]*>',
      '(\\d{1,3}\\.){3}\\d{1,3}',
      '^(www|store|blog)\\.example\\.com',
      '\\.(php|asp|aspx|jsp)$',
      '(?i)\\b(?:eval|exec|system)\\s*\\(',
      '.*foo.*bar',
      '^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$',
      '(\\.\\./)+',
    ]) {
      expect(refusal(p), p).toBeUndefined();
    }
  });

  it('runs an accepted pattern on a long hostile input quickly', () => {
    const r = re('^(\\d+\\.)+\\d+$');
    const input = `${'1.'.repeat(20_000)}x`;
    const start = performance.now();
    expect(r.test(input)).toBe(false);
    expect(performance.now() - start).toBeLessThan(1000);
  });
});
