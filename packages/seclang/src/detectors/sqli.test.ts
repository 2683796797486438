import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import vectors from '../../testdata/detect-sqli.json' with { type: 'json' };
import { detectSQLi } from './sqli.ts';
import { matchingPatterns, SQLI_PATTERNS } from './sqli-patterns.ts';
import { sqlFingerprint } from './sqli-tokenizer.ts';

interface Vector {
  group: string;
  input: string;
  match: boolean;
}

const VECTORS = vectors as Vector[];

describe('detectSQLi vectors (testdata/detect-sqli.json)', () => {
  it.each(VECTORS.filter((v) => v.match).map((v) => [v.group, v.input]))('flags %s: %s', (_group, input) => {
    const result = detectSQLi(input);
    expect(result.match).toBe(true);
    expect(result.fingerprint).toMatch(/^[a-z();,.]{1,8}$/);
  });

  it.each(VECTORS.filter((v) => !v.match).map((v) => [v.group, v.input]))(
    'passes %s: %s',
    (_group, input) => {
      expect(detectSQLi(input)).toEqual({ match: false });
    },
  );
});

describe('sqlFingerprint', () => {
  it.each([
    ['1 or 1=1', 0, 'nlnon'],
    ["x' or 1=1--", 39, 'slnonc'],
    ["x' or 1=1-- comment", 39, 'slnonm'],
    ["x' or 1=1#", 39, 'slnonh'],
    ['2024-01-01', 0, 'n'],
    ['-1 union all select null,null', 0, 'nuqn'],
    ['a.b.c = @@version', 0, 'wov'],
    ['x order by 1', 0, 'wbn'],
    ["1 waitfor delay '0:0:5'", 0, 'nts'],
    ["x' into outfile '/tmp/x'", 39, 'ses'],
    ['sleep(5)', 0, 'f(n)'],
    ['sleep (5)', 0, 'f(n)'],
    ['count (5)', 0, 'w(n)'],
    ['1/*!50000union*/select 1', 0, 'nuqn'],
    ['1 union/**/all/**/select 1', 0, 'nuqn'],
    ['1/**/or/**/1=1', 0, 'nlnon'],
    ["x' or not 1=2", 39, 'slnon'],
    ["N'abc' = 1", 0, 'son'],
    ['5--6', 0, 'n'],
    ['x\' "b', 39, 'sx'],
  ] as const)('%s read in context %i is %s', (input, quote, fingerprint) => {
    expect(sqlFingerprint(input, quote)).toBe(fingerprint);
  });

  it('keeps at most eight tokens', () => {
    expect(sqlFingerprint('a ( b ( c ( d ( e ( f', 0)).toHaveLength(8);
  });

  it('folds prototype property names as plain words', () => {
    expect(sqlFingerprint('constructor toString __proto__ hasOwnProperty', 0)).toBe('w');
  });
});

describe('SQLI_PATTERNS', () => {
  it('names every pattern once', () => {
    const names = SQLI_PATTERNS.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('has a flagged vector for every pattern', () => {
    const used = new Set<string>();
    for (const v of VECTORS.filter((x) => x.match)) {
      for (const quote of [0, 39, 34] as const) {
        for (const name of matchingPatterns(sqlFingerprint(v.input, quote), quote !== 0)) used.add(name);
      }
    }
    expect(SQLI_PATTERNS.map((p) => p.name).filter((name) => !used.has(name))).toEqual([]);
  });
});

describe('detectSQLi robustness', () => {
  it('never throws and returns a well-formed result', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200, unit: 'binary' }), (input) => {
        const result = detectSQLi(input);
        expect(typeof result.match).toBe('boolean');
        if (result.match) expect(result.fingerprint?.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on SQL-shaped noise', () => {
    const piece = fc.constantFrom(
      "'",
      '"',
      '`',
      '(',
      ')',
      '--',
      '#',
      '/*',
      '*/',
      '/*!',
      ';',
      ',',
      '.',
      '@@',
      '@',
      ' ',
      '\n',
      '\\',
      'or',
      'and',
      'union',
      'select',
      'all',
      'order',
      'by',
      'waitfor',
      'delay',
      'sleep(',
      '1',
      '0x1f',
      '=',
      '<>',
      '||',
      '&&',
      'not',
      'like',
      'is',
      'null',
      'x',
      'N',
      'constructor',
      '__proto__',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        expect(() => detectSQLi(pieces.join(''))).not.toThrow();
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ["'", 'quotes'],
    ['/*', 'open comments'],
    ['--', 'dashes'],
    ['(', 'parentheses'],
    ["\\'", 'escaped quotes'],
    ['union/**/', 'gapped keywords'],
    ['a', 'one long word'],
    ['1 or ', 'repeated logic'],
    ['"\'', 'mixed quotes'],
  ])('stays linear on 256 KiB of %s (%s)', (unit) => {
    // A quadratic scan of 256 KiB takes minutes; the bound leaves room for a loaded CI machine.
    const input = unit.repeat(Math.ceil(262_144 / unit.length));
    const started = performance.now();
    detectSQLi(input);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
