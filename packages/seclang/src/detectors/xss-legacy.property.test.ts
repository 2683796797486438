// No decision changes from the detector @detectXSS replaced (legacy-xss/) without a named reason:
// every input on which the two disagree is explained by the classes of
// testdata/libinjection/xss-legacy-differences.json. And any string returns, in linear work.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import differences from '../../testdata/libinjection/xss-legacy-differences.json' with { type: 'json' };
import { type HtmlStart, HtmlTokenizer } from './html-tokenizer.ts';
import { legacyDetectXSS } from './legacy-xss/legacy-xss.ts';
import { detectXSS } from './xss.ts';

const CLASSES = differences.classes.map((c) => ({ ...c, pattern: new RegExp(c.pattern, 'gi') }));

/**
 * The classes that explain why the detectors disagree on `input`: the constructs of each class, in
 * order, are replaced until both agree. Undefined when no listed class explains it.
 */
function explain(input: string): string[] | undefined {
  const direction = legacyDetectXSS(input) ? 'legacy-only' : 'new-only';
  const used: string[] = [];
  let s = input;
  for (const c of CLASSES) {
    if (legacyDetectXSS(s) === detectXSS(s)) return used;
    if (c.direction !== 'both' && c.direction !== direction) continue;
    const next = s.replace(c.pattern, c.replacement);
    if (next !== s) used.push(c.name);
    s = next;
  }
  return legacyDetectXSS(s) === detectXSS(s) ? used : undefined;
}

const MARKUP_PIECES = [
  ...['<', '>', '/', '=', '"', "'", '`', ' ', '\t', '\n', '\u0000', '\u00ff', '!', '?', '%', ';', 'a', 'x'],
  ...['--', '<!--', '-->', '<%', '%>', '</', '/>', '[if', 'xml', 'import', 'ENTITY', 'ELEMENT', 'DOCTYPE'],
  ...['&#', '&#x', '4a', '106', '&colon;', '&#0;', 'script', 'img', 'svg', 'bgsound', 'x:script'],
  ...['on', 'onx', 'onload', 'href', 'src', 'style', 'srcdoc', 'cite', 'xmlns', 'attributename', 'values'],
  ...[
    'formaction',
    'dataformatas',
    'filter',
    'javascript:',
    'data:',
    'vbscript:',
    'livescript:',
    'view-source:',
  ],
  ...['color:red', 'expression('],
];
const markup = fc.array(fc.constantFrom(...MARKUP_PIECES), { maxLength: 12 }).map((p) => p.join(''));

describe('detectXSS against the legacy detector', () => {
  it('every difference falls in a named class', () => {
    fc.assert(
      fc.property(markup, (input) => {
        if (legacyDetectXSS(input) === detectXSS(input)) return;
        expect(explain(input), JSON.stringify(input)).toBeDefined();
      }),
      { numRuns: 20_000 },
    );
  });

  it('explains the differences seen in issue 40 and in testdata/detect-xss.json', () => {
    expect(explain('<bgsound src=x>')).toEqual(["tags outside libinjection's list"]);
    expect(explain('<v:vmlframe src="x.vml"/>')).toEqual(['namespaced tags']);
    expect(explain('online=true')).toEqual(['on* names']);
    expect(explain('<span style="color:red">red</span>')).toEqual(['attributes libinjection judges']);
    expect(explain('<img src=x onerror=')).toEqual(['no value at the end']);
  });

  it('every class is needed: each explains some example', () => {
    const examples = [
      '<img src=x onerror=',
      '<a x \u00ff onload=1>',
      'x\u0000onload=1',
      '<bgsound>',
      '<x:script>',
      '<!ELEMENT x>',
      '<% `%>',
      '<a srcdoc="<b>">',
      '<a filter=x>',
      '<a onxyz=1>',
      '<a href=livescript:x>',
      '<a href=java>',
      '<svgx>',
    ];
    const used = new Set(examples.flatMap((e) => explain(e) ?? ['unexplained']));
    expect([...used].sort()).toEqual(CLASSES.map((c) => c.name).sort());
  });
});

const STARTS: readonly HtmlStart[] = ['data', 'attributes', "'", '"', '`'];
/** Any UTF-16 code units: NUL, controls, lone surrogates, bytes above 0x7F. */
const anyUnits = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 300 })
  .map((units) => String.fromCharCode(...units));

describe('detectXSS on hostile input', () => {
  it('returns a boolean for any string', () => {
    fc.assert(
      fc.property(fc.oneof(anyUnits, markup), (input) => {
        expect(typeof detectXSS(input)).toBe('boolean');
      }),
      { numRuns: 5000 },
    );
  });

  // Linear work: each reading is one pass of the tokenizer, whose tokens come in order and never
  // overlap, and the rules read a bounded prefix of each token or the token once.
  it('tokenizes in order, without going back, from every start', () => {
    fc.assert(
      fc.property(fc.oneof(anyUnits, markup), fc.constantFrom(...STARTS), (input, start) => {
        const tokens = new HtmlTokenizer(input, start);
        let last = 0;
        let count = 0;
        while (tokens.next()) {
          expect(tokens.start).toBeGreaterThanOrEqual(last);
          expect(tokens.end).toBeGreaterThanOrEqual(tokens.start);
          expect(tokens.end).toBeLessThanOrEqual(input.length);
          last = tokens.end;
          count++;
        }
        expect(count).toBeLessThanOrEqual(input.length + 1);
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['<a ', 'open tags'],
    ['<!--', 'open comments'],
    ['<!---', 'dashes in a comment'],
    ['<a x=', 'attributes without values'],
    ['<a style="', 'open style values'],
    ['a=" ', 'quotes and equals'],
    ["<a href='&#x", 'references in URLs'],
    ['<', 'angle brackets'],
    ['<%', 'percent comments'],
    ['\u0000', 'NULs'],
    ['\ud800', 'lone surrogates'],
  ])('returns on 1 MiB of %j (%s)', (unit) => {
    const input = unit.repeat(Math.ceil(1_048_576 / unit.length));
    expect(typeof detectXSS(input)).toBe('boolean'); // bench/detect-xss.ts prints the time
  });
});
