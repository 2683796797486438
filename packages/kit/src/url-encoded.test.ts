import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseUrlEncoded } from './url-encoded.ts';

/** What the WHATWG parser (URLSearchParams) makes of the same text, grouped as ours groups it. */
function whatwg(text: string): Record<string, string | string[]> {
  const grouped: Record<string, string | string[]> = Object.create(null);
  for (const [key, value] of new URLSearchParams(text)) {
    const existing = grouped[key];
    grouped[key] = existing === undefined ? value : [existing, value].flat();
  }
  return grouped;
}

const urlChars = fc.constantFrom(...'ab=&+%0Ff9zZ~ é\u00ff'.split(''), '%00', '%C3%A9', '%ED%A0%80', '%FF');

describe('strict application/x-www-form-urlencoded parsing', () => {
  it('agrees with URLSearchParams whenever it finds no problem, and never throws', () => {
    fc.assert(
      fc.property(fc.array(urlChars, { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        const { values, problem } = parseUrlEncoded(text);
        if (!problem) expect(values).toEqual(whatwg(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('round-trips whatever URLSearchParams encodes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }))),
        (pairs) => {
          const text = new URLSearchParams(pairs).toString();
          const { values, problem } = parseUrlEncoded(text);
          expect(problem).toBeUndefined();
          expect(values).toEqual(whatwg(text));
        },
      ),
    );
  });

  it('reports invalid percent-encoding and bytes that are not UTF-8, naming the parameter', () => {
    expect(parseUrlEncoded('a=1&b=%ZZ').problem).toEqual({
      name: 'b',
      problem: 'has an invalid percent-encoding "%ZZ"; write a literal % as %25',
    });
    expect(parseUrlEncoded('q=caf%C3').problem).toEqual({
      name: 'q',
      problem: 'is not valid UTF-8: byte 0xC3 at offset 3 after percent-decoding',
    });
    expect(parseUrlEncoded('q=%ED%A0%80').problem?.name).toBe('q');
    expect(parseUrlEncoded('%FF=1').problem?.name).toBe('%FF');
    expect(parseUrlEncoded('q=50%').problem?.problem).toMatch(/invalid percent-encoding "%"/);
    // NUL decodes fine here; refusing it is the storable-text check's job.
    expect(parseUrlEncoded('q=caf%00e')).toEqual({
      values: expect.objectContaining({ q: 'caf\0e' }),
      problem: undefined,
    });
  });

  it('keeps a raw value for a parameter it could not decode, and arrays for repeated names', () => {
    expect({ ...parseUrlEncoded('b=%ZZ&a=1&a=2&c').values }).toEqual({ b: '%ZZ', a: ['1', '2'], c: '' });
    expect(Object.getPrototypeOf(parseUrlEncoded('__proto__=x').values)).toBeNull();
  });
});
