// The legacy detector's own tests, kept while it serves as the baseline of
// ../sqli-legacy.property.test.ts.
import { describe, expect, it } from 'vitest';
import vectors from '../../../testdata/detect-sqli.json' with { type: 'json' };
import { legacyDetectSQLi } from './legacy-sqli.ts';
import { matchingPatterns, SQLI_PATTERNS } from './sqli-patterns.ts';
import { sqlFingerprint } from './sqli-tokenizer.ts';

interface Vector {
  group: string;
  input: string;
  match: boolean;
}

const VECTORS = vectors as Vector[];

describe('legacyDetectSQLi vectors (testdata/detect-sqli.json)', () => {
  it('decides every vector as the vector says', () => {
    const wrong = VECTORS.filter((v) => legacyDetectSQLi(v.input).match !== v.match).map((v) => v.input);
    expect(wrong).toEqual([]);
  });
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
