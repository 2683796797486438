import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import detectXssVectors from '../../testdata/detect-xss.json' with { type: 'json' };
import exceptionsFile from '../../testdata/libinjection/xss-exceptions.json' with { type: 'json' };
import { type HtmlStart, HtmlTokenizer } from './html-tokenizer.ts';
import { detectXSS, readsAsXss } from './xss.ts';
import { attributeKind, isDangerousUrl } from './xss-rules.ts';

interface LibinjectionFile<V> {
  source: string;
  label: string;
  vectors: V[];
}

interface Sample {
  file: string;
  line: number;
  input: string;
  xss: boolean;
}

interface TokenVector {
  test: string;
  title: string;
  input: string;
  tokens: Array<[string, string]>;
  xss: boolean;
}

function load<V>(name: string): LibinjectionFile<V> {
  const url = new URL(`../../testdata/libinjection/${name}`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as LibinjectionFile<V>;
}

const exceptions = new Map<string, string>(
  (exceptionsFile.exceptions as Array<{ source: string; reason: string }>).map((e) => [e.source, e.reason]),
);

describe('detectXSS decides as libinjection (ModSecurity 3.0.9) on its test vectors', () => {
  it.each([
    ['xss-samples.json', 16000], // data/xss-*.txt: attacks (libinjection passes 102 of them)
    ['xss-other-samples.json', 17000], // data/sqli-*.txt and data/false_positives.txt
  ])('%s', (file, atLeast) => {
    const { vectors } = load<Sample>(file);
    expect(vectors.length).toBeGreaterThan(atLeast);
    const unexplained = vectors
      .filter((v) => detectXSS(v.input) !== v.xss && !exceptions.has(`${v.file}:${v.line}`))
      .map((v) => `${v.file}:${v.line} libinjection ${v.xss}: ${JSON.stringify(v.input)}`);
    expect(unexplained).toEqual([]);
  });
});

describe('html tokenizer (libinjection tests/test-html5-*.txt)', () => {
  const { vectors } = load<TokenVector>('xss-html5-tokens.json');

  it.each(vectors.map((v) => [v.test, v.title, v]))('%s %s', (_test, _title, v) => {
    const vector = v as TokenVector;
    const tokens = new HtmlTokenizer(vector.input, 'data');
    const seen: Array<[string, string]> = [];
    while (tokens.next()) seen.push([tokens.type, vector.input.slice(tokens.start, tokens.end)]);
    expect(seen).toEqual(vector.tokens);
    expect(detectXSS(vector.input)).toBe(vector.xss);
  });
});

describe('detectXSS vectors (testdata/detect-xss.json)', () => {
  it.each(detectXssVectors.map((v) => [v.match ? 'flags' : 'passes', v.group, v.input, v.match]))(
    '%s %s: %s',
    (_verb, _group, input, match) => {
      expect(detectXSS(input as string)).toBe(match);
    },
  );
});

describe('readings and rules, where libinjection is surprising', () => {
  const reads = (input: string, start: HtmlStart) => readsAsXss(input, start);

  it('reads the input in each place it could land in a page', () => {
    expect(reads('<script>', 'data')).toBe(true);
    expect(reads('x onload=1', 'attributes')).toBe(true);
    expect(reads("x' onload='1", "'")).toBe(true);
    expect(reads('x" onload="1', "'")).toBe(false);
    expect(reads('x` onload=1', '`')).toBe(true);
  });

  it('flags on* names of five characters or more, with a value', () => {
    expect(attributeKind('onx=', 0, 3)).toBe('none');
    expect(attributeKind('onxy', 0, 4)).toBe('none');
    expect(attributeKind('onion', 0, 5)).toBe('always');
    expect(detectXSS('<b onclick>')).toBe(false); // no value
  });

  it('reads a URL as a browser reads its scheme, with numeric references only', () => {
    const url = (s: string) => isDangerousUrl(s, 0, s.length);
    expect(url(' \u0001&#106;ava')).toBe(true);
    expect(url('&#x14A;avascript:')).toBe(true); // compared as the low byte, 0x4A "J"
    expect(url('&#x16A;avascript:')).toBe(false);
    expect(url('j\u0000a\nvascript:')).toBe(true);
    expect(url('&colon;javascript:')).toBe(false);
    expect(url('https://example.com/?javascript:')).toBe(false);
  });

  it('reads an end tag with attributes, or at the end, as an opening one', () => {
    expect(detectXSS('</script x>')).toBe(true);
    expect(detectXSS('</svg')).toBe(true);
    expect(detectXSS('</script>')).toBe(false);
  });

  it('stops reading attributes at a 0xFF byte, as libinjection does', () => {
    expect(detectXSS('x \u00ffonload=1')).toBe(false);
    expect(detectXSS('x onload=1')).toBe(true);
  });
});
