// No decision changes from the detector @detectSQLi replaced (legacy-sqli/) without a named
// reason: every input on which the two disagree falls in a class of
// testdata/libinjection/sqli-legacy-differences.json.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import differences from '../../testdata/libinjection/sqli-legacy-differences.json' with { type: 'json' };
import { legacyDetectSQLi } from './legacy-sqli/legacy-sqli.ts';
import { detectSQLi, readSql } from './sqli.ts';
import { isAttackFingerprint } from './sqli-keywords.ts';

const NEW_ONLY = differences.classes
  .filter((c) => c.direction === 'new-only')
  .map((c) => ({ name: c.name, fingerprint: new RegExp(c.fingerprint ?? '^$') }));

/** The named class of an input on which the detectors disagree, or undefined if none fits. */
function differenceClass(input: string): string | undefined {
  const now = detectSQLi(input);
  if (now.match) return NEW_ONLY.find((c) => c.fingerprint.test(now.fingerprint ?? ''))?.name;
  const readings = [
    readSql(input, '', false),
    readSql(input, '', true),
    readSql(input, "'", false),
    readSql(input, "'", true),
    readSql(input, '"', true),
  ];
  const listed = readings.some((r) => r.fingerprint !== '' && isAttackFingerprint(r.fingerprint));
  return listed ? 'libinjection-short-fingerprint-rule' : 'not-on-libinjection-list';
}

function checkAgainstLegacy(input: string): void {
  if (legacyDetectSQLi(input).match === detectSQLi(input).match) return;
  const name = differenceClass(input);
  if (name === undefined)
    throw new Error(`unnamed difference from the legacy detector: ${JSON.stringify(input)}`);
}

const SQL_PIECES = [
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
    ';',
    ',',
    '.',
    '@@',
    ' ',
    ' ',
    '\n',
    '{',
    '}',
    '\\',
  ],
  ...[
    'or',
    'and',
    'union',
    'select',
    'all',
    'from',
    'users',
    'order by',
    'waitfor delay',
    'sleep(',
    '1',
    '0x1f',
  ],
  ...[
    '=',
    '<>',
    '||',
    'not',
    'like',
    'is',
    'null',
    'x',
    'limit',
    'having',
    'exec',
    'drop table',
    'insert into',
  ],
  ...['version()', 'char(', '2024-01-01', '?', ':'],
];
const WORDS = [
  'the',
  'kids',
  "kids'",
  'select',
  'a',
  'colour',
  'and',
  'or',
  'union',
  'station',
  "O'Reilly",
  'rock',
];
const TEXT_PIECES = [
  ...WORDS,
  ' ',
  ' ',
  ', ',
  '. ',
  '!',
  '?',
  '(',
  ')',
  '-',
  '"',
  "'",
  '1',
  '2024',
  '5%',
  '&',
];

describe('@detectSQLi against the legacy detector', () => {
  it('differs on SQL-shaped input only in named classes', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...SQL_PIECES), { maxLength: 12 }), (pieces) => {
        checkAgainstLegacy(pieces.join(''));
      }),
      { numRuns: 5000, seed: 40 },
    );
  });

  it('differs on plain text only in named classes', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TEXT_PIECES), { maxLength: 16 }), (pieces) => {
        checkAgainstLegacy(pieces.join(''));
      }),
      { numRuns: 5000, seed: 40 },
    );
  });

  it('lists each changed vector of detect-sqli.json under the class its reason names', () => {
    const names = new Set(differences.classes.map((c) => c.name));
    for (const v of differences.vectors) {
      expect(legacyDetectSQLi(v.input).match).toBe(v.legacy);
      expect(detectSQLi(v.input).match).toBe(!v.legacy);
      const named = v.reason.split(':')[0]!;
      expect(names.has(named)).toBe(true);
      expect({ input: v.input, class: differenceClass(v.input) }).toEqual({ input: v.input, class: named });
    }
  });
});
