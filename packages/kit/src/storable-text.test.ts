import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CairnError } from './errors.ts';
import { findUnstorableText, rejectUnstorableText, textProblem } from './storable-text.ts';

describe('text PostgreSQL can store', () => {
  it('accepts well-formed text without NUL', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(textProblem(text.replaceAll('\0', ''))).toBeUndefined();
      }),
    );
  });

  it('refuses NUL and unpaired surrogates anywhere, saying where', () => {
    expect(textProblem('caf\0e')).toBe(
      'contains a NUL character (U+0000) at character 4; text cannot contain it',
    );
    expect(textProblem('x\uD800')).toBe(
      'contains an unpaired surrogate (\\uD800) at character 2, which is not valid Unicode',
    );
    expect(textProblem('\uDC00x')).toMatch(/unpaired surrogate \(\\uDC00\) at character 1/);
    expect(textProblem('\uD83D\uDE00')).toBeUndefined();
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.constantFrom('\0', '\uD800', '\uDFFF'), (a, b, bad) => {
        const text = `${a.replace(/[\uD800-\uDBFF]$/, '')}${bad}${b.replace(/^[\uDC00-\uDFFF]/, '')}`;
        expect(textProblem(text)).toBeDefined();
      }),
    );
  });

  it('finds the first bad string at any depth, in keys too', () => {
    expect(findUnstorableText({ a: [1, 'ok', { b: 'x\0' }] })?.path).toEqual(['a', 2, 'b']);
    expect(findUnstorableText({ a: { 'k\0': 1 } })).toEqual({
      path: ['a', 'k\0'],
      problem: 'has a name that contains a NUL character (U+0000) at character 2; text cannot contain it',
    });
    expect(findUnstorableText({ a: [null, true, 3, 'fine'] })).toBeUndefined();
    let deep: unknown = 'x\0';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnstorableText(deep)?.path).toHaveLength(100_000);
  });

  it('throws a 400 that names the field, with a JSON pointer for bodies', () => {
    const thrown = (() => {
      try {
        rejectUnstorableText({ 'a/b': ['\0'] }, 'body');
      } catch (error) {
        return error;
      }
    })() as CairnError;
    expect(thrown).toBeInstanceOf(CairnError);
    expect(thrown.status).toBe(400);
    expect(thrown.message).toMatch(/^Body field a\/b\.0 contains a NUL/);
    expect(thrown.location).toEqual({ pointer: '/a~1b/0' });
    expect(() => rejectUnstorableText({ 'x-\0': 'v' }, 'headers')).toThrow(/^Header x-\\u0000 /);
  });
});
