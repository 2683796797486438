import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import detectSqliVectors from '../../testdata/detect-sqli.json' with { type: 'json' };
import exceptionsFile from '../../testdata/libinjection/sqli-exceptions.json' with { type: 'json' };
import differences from '../../testdata/libinjection/sqli-legacy-differences.json' with { type: 'json' };
import { detectSQLi, readSql } from './sqli.ts';

interface LibinjectionVector {
  source: string;
  input: string;
  sqli: boolean;
  fingerprint: string | null;
  /** Fingerprints of the five readings: as is ANSI, as is MySQL, after ' ANSI, after ' MySQL, after " MySQL. */
  readings: string[];
}

const READINGS = [
  ['', false],
  ['', true],
  ["'", false],
  ["'", true],
  ['"', true],
] as const;

const exceptions = new Map<string, string>(
  (exceptionsFile.exceptions as Array<{ source: string; reason: string }>).map((e) => [e.source, e.reason]),
);

function loadVectors(name: string): LibinjectionVector[] {
  const url = new URL(`../../testdata/libinjection/${name}`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as LibinjectionVector[];
}

/** What differs from libinjection on one vector, or '' when nothing does. */
function disagreement(v: LibinjectionVector): string {
  const result = detectSQLi(v.input);
  if (result.match !== v.sqli || (result.fingerprint ?? null) !== v.fingerprint) {
    return `decision ${result.match}/${result.fingerprint} (libinjection ${v.sqli}/${v.fingerprint})`;
  }
  const readings = READINGS.map(([quote, mysql]) => readSql(v.input, quote, mysql).fingerprint || '-');
  return readings.join(' ') === v.readings.join(' ')
    ? ''
    : `readings ${readings} (libinjection ${v.readings})`;
}

describe('detectSQLi agrees with the libinjection of Debian libmodsecurity3 3.0.9 (testdata/libinjection/)', () => {
  it.each([
    ['sqli-attack-samples.json', 16000],
    ['sqli-false-positives.json', 400],
    ['sqli-unit-tests.json', 400],
    ['sqli-fuzz.json', 3900],
  ])('%s: same decision, fingerprint and readings', (file, atLeast) => {
    const vectors = loadVectors(file);
    expect(vectors.length).toBeGreaterThan(atLeast);
    const unexplained = vectors
      .map((v) => ({ source: v.source, input: v.input, why: disagreement(v) }))
      .filter((d) => d.why !== '' && !exceptions.has(d.source));
    expect(unexplained).toEqual([]);
  });

  it('lists no exception that agrees anyway', () => {
    const all = ['sqli-attack-samples.json', 'sqli-false-positives.json', 'sqli-unit-tests.json'].flatMap(
      loadVectors,
    );
    const stale = [...exceptions.keys()].filter((source) => {
      const v = all.find((x) => x.source === source);
      return v === undefined || disagreement(v) === '';
    });
    expect(stale).toEqual([]);
  });

  it.each([
    ['1--x\nAND--x\n1=2', '1&1'], // sqlmap's space2dash tamper (issue 40)
    ["-1' or '1'='1", 's&sos'],
    ['1 union select null,null--', '1UEvc'],
    ['1 AND 1=2', '1&1'],
    ["admin'--", 'sc'],
    ['1/*!50000union*/select 1', 'X'],
  ])('%j is SQL injection with fingerprint %s', (input, fingerprint) => {
    expect(detectSQLi(input)).toEqual({ match: true, fingerprint });
  });

  it.each(["O'Reilly", 'rock and roll', 'select a colour', '2024-01-01', 'kids and 17'])(
    '%j is text',
    (input) => {
      expect(detectSQLi(input)).toEqual({ match: false });
    },
  );
});

describe('detectSQLi vectors (testdata/detect-sqli.json)', () => {
  // Vectors written for the legacy detector; where libinjection decides otherwise the vector is
  // listed with its reason in sqli-legacy-differences.json.
  const changed = new Map(differences.vectors.map((d) => [d.input, d]));

  it.each(detectSqliVectors.map((v) => [v.group, v.input, v.match] as const))(
    '%s: %j',
    (_group, input, match) => {
      const listed = changed.get(input);
      if (listed !== undefined) {
        expect(listed.legacy).toBe(match);
        expect(detectSQLi(input).match).toBe(!match);
      } else {
        expect(detectSQLi(input).match).toBe(match);
      }
    },
  );
});

const FINGERPRINT = /^[kUBEtfn1vso&cA(){}.,:;T?X\\]{1,5}$/;

describe('detectSQLi robustness', () => {
  it('never throws and returns a well-formed result on any string', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 300, unit: 'binary' }),
          fc.string({ maxLength: 60, unit: 'grapheme' }),
        ),
        (input) => {
          const result = detectSQLi(input);
          return result.match ? FINGERPRINT.test(result.fingerprint ?? '') : result.fingerprint === undefined;
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('reads NUL bytes, lone surrogates and characters above 0xFF', () => {
    for (const input of [
      '\u0000',
      "1'\u0000or 1=1",
      '\ud800',
      "x' or \udc00'a'='a",
      '\u2028union select 1',
      '1 \u0100or 1=1',
    ]) {
      expect(() => detectSQLi(input)).not.toThrow();
    }
    expect(detectSQLi("1' or '1'='1\u0000").match).toBe(true);
  });

  it('never throws on SQL-shaped noise', () => {
    const piece = fc.constantFrom(
      ...[
        "'",
        '"',
        '`',
        '(',
        ')',
        '--',
        '-- ',
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
      ],
      ...[
        'or',
        'and',
        'union',
        'select',
        'all',
        'order by',
        'waitfor',
        'delay',
        'sleep(',
        '1',
        '0x1f',
        '1e5',
      ],
      ...[
        '=',
        '<>',
        '<=>',
        '||',
        '&&',
        '::',
        'not',
        'like',
        'in',
        'is',
        'null',
        'x',
        'N',
        "N'",
        "q'[",
        "U&'",
      ],
      ...['$$', '$a$', '{', '}', '[', ']', 'collate', 'utf8_bin', 'constructor', '__proto__'],
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
    ['/**/', 'closed comments'],
    ['--', 'dashes'],
    ['(', 'parentheses'],
    ["\\'", 'escaped quotes'],
    ['\\', 'backslashes'],
    ['union/**/', 'gapped keywords'],
    ['a', 'one long word'],
    ['a.', 'dotted words'],
    ['1+', 'arithmetic'],
    ['1,', 'lists'],
    ['1 or ', 'repeated logic'],
    ['"\'', 'mixed quotes'],
    ['$a$', 'dollar tags'],
    ['$aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab', 'unclosed dollar tags'],
    ["q'[", 'Oracle quotes'],
    ['\u0000', 'NUL bytes'],
  ])('stays linear on 256 KiB of %j (%s)', (unit) => {
    // A quadratic scan of 256 KiB takes minutes; the bound leaves room for a loaded CI machine.
    const input = unit.repeat(Math.ceil(262_144 / unit.length));
    const started = performance.now();
    detectSQLi(input);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
