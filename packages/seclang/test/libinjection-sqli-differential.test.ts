// @detectSQLi against the real thing: random SQL-shaped strings and random bytes go to both our
// detector and the libinjection of Debian's libmodsecurity3 (test/libmodsecurity-sqli.ts); the
// decision, the fingerprint and the five readings must be the same. Skipped, saying why, where
// libmodsecurity3 or gcc is missing.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { detectSQLi, readSql } from '../src/detectors/sqli.ts';
import { buildSqliDriver, runSqliDriver, sqliDriverUnavailable } from './libmodsecurity-sqli.ts';

const unavailable = sqliDriverUnavailable();

const PIECES = [
  ...[
    "'",
    '"',
    '`',
    '--',
    '-- ',
    '#',
    '/*',
    '*/',
    '/*!',
    '(',
    ')',
    ',',
    ';',
    '{',
    '}',
    '[',
    ']',
    '\\',
    '\\N',
  ],
  ...['@', '@@', '$', '$$', '$a$', '.', '1', '0x1f', '0b1', '1e5', '1.5f', '1.e', "x'ab'", "b'01'", "N'a'"],
  ...["q'[a]'", "nq'(a)'", "U&'a'", "E'a'", ' ', '\n', '\t', '\u00a0', '\u0000', '\u00ff', '?', ':'],
  ...['and', 'or', 'union', 'select', 'all', 'from', 'in', 'not', 'like', 'user', 'if', 'ifnull', 'collate'],
  ...['utf8_bin', 'into', 'outfile', 'sleep', 'char', 'version', 'sp_password', 'waitfor', 'delay', 'exec'],
  ...['group by', 'order by', 'having', 'limit', 'int', 'null', 'true', 'x.y', 'select.1', 'where', 'a'],
  ...['=', '<', '>', '<=>', '!=', '||', '&&', '::', ':=', '+', '-', '*', '%', '!', '~', '^', '|', '&'],
];
const sqlShaped = fc.array(fc.constantFrom(...PIECES), { maxLength: 14 }).map((p) => p.join(''));
const bytes = fc
  .array(fc.integer({ min: 0, max: 255 }), { maxLength: 40 })
  .map((b) => String.fromCharCode(...b));

const READINGS = [
  ['', false],
  ['', true],
  ["'", false],
  ["'", true],
  ['"', true],
] as const;

describe.skipIf(unavailable !== undefined)(
  `detectSQLi and Debian's libinjection ${unavailable ?? ''}`,
  () => {
    let driver = '';
    beforeAll(() => {
      driver = buildSqliDriver();
    });

    it('agree on 20,000 random SQL-shaped strings and byte strings', () => {
      const seed = Date.now() | 0;
      const inputs = [
        ...fc.sample(sqlShaped, { numRuns: 15_000, seed }),
        ...fc.sample(bytes, { numRuns: 5_000, seed }),
      ];
      const theirs = runSqliDriver(driver, inputs);
      const differ = inputs.flatMap((input, k) => {
        const ours = detectSQLi(input);
        const readings = READINGS.map(([quote, mysql]) => readSql(input, quote, mysql).fingerprint || '-');
        const lib = theirs[k]!;
        const same =
          ours.match === lib.sqli &&
          (ours.fingerprint ?? null) === lib.fingerprint &&
          readings.join(' ') === lib.readings.join(' ');
        return same
          ? []
          : [`${JSON.stringify(input)}: libinjection ${lib.sqli} ${lib.fingerprint} ${lib.readings}`];
      });
      expect(differ, `fast-check seed ${seed}`).toEqual([]);
    });

    it("gives sqlmap's space2dash payload of issue 40 the fingerprint 1&1", () => {
      const [lib] = runSqliDriver(driver, ['1--x\nAND--x\n1=2']);
      expect(lib).toEqual({ sqli: true, fingerprint: '1&1', readings: ['1&1', '1&n1', 's', 's', 's'] });
      expect(detectSQLi('1--x\nAND--x\n1=2')).toEqual({ match: true, fingerprint: '1&1' });
    });
  },
);
