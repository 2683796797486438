// @detectXSS against the real thing: random markup-shaped bytes go to both our detector and the
// libinjection_xss() of Debian's libmodsecurity3 (test/libmodsecurity-xss.ts); every decision must
// be the same. Skipped, saying why, where libmodsecurity3 or gcc is missing.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { detectXSS } from '../src/detectors/xss.ts';
import { buildDriver, driverUnavailable, runDriver } from './libmodsecurity-xss.ts';

const unavailable = driverUnavailable();

const PIECES = [
  ...['<', '>', '/', '=', '"', "'", '`', ' ', '\t', '\n', '\u000b', '\u0000', '\u0080', '\u00ff', '!', '?'],
  ...['%', ';', '-', '--', '<!--', '-->', '-!>', '<%', '%>', '</', '/>', '[CDATA[', ']]>', '[if', 'xml'],
  ...['import', 'ENTITY', 'DOCTYPE', '&#', '&#x', '4a', '6A', '106', '&#0;', '&#x14A;', '&#10;', '&#32;'],
  ...['a', 'x', 'script', 'SVG', 'xsl', 'img', 'iframe', 'style', 'on', 'onx', 'onload', 'OnError'],
  ...['href', 'src', 'xmlns', 'xlink:href', 'attributename', 'values', 'filter', 'dataformatas'],
  ...['javascript:', 'JaVa', 'data:', 'vbscript', 'view-source'],
];
const markup = fc.array(fc.constantFrom(...PIECES), { maxLength: 16 }).map((p) => p.join(''));
const bytes = fc
  .array(fc.integer({ min: 0, max: 255 }), { maxLength: 40 })
  .map((b) => String.fromCharCode(...b));

describe.skipIf(unavailable !== undefined)(`detectXSS and Debian's libinjection ${unavailable ?? ''}`, () => {
  let driver = '';
  beforeAll(() => {
    driver = buildDriver();
  });

  it('decide the same on 20,000 random markup strings and byte strings', () => {
    const seed = Date.now() | 0;
    const inputs = [
      ...fc.sample(markup, { numRuns: 15_000, seed }),
      ...fc.sample(bytes, { numRuns: 5_000, seed }),
    ];
    const theirs = runDriver(driver, inputs).map((line) => line === '1');
    const differ = inputs
      .filter((input, k) => detectXSS(input) !== theirs[k])
      .map((input) => `libinjection ${!detectXSS(input)}: ${JSON.stringify(input)}`);
    expect(differ, `fast-check seed ${seed}`).toEqual([]);
  });
});
