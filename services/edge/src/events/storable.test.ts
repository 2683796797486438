import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storableBytes, storableText } from './storable.ts';

const storable = (s: string) => !s.includes('\0') && Buffer.from(s, 'utf8').toString('utf8') === s;
const binary = fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString('latin1'));

describe('storableBytes', () => {
  it('decodes UTF-8 and escapes NUL and each byte of an invalid sequence', () => {
    expect(storableBytes('caf\xc3\xa9')).toBe('café');
    expect(storableBytes('a\x00b')).toBe('a\\x00b');
    expect(storableBytes('\xff\xc3(\xed\xa0\x80\xf0\x9f\x98\x80')).toBe('\\xff\\xc3(\\xed\\xa0\\x80😀');
    expect(storableBytes('\xe0\x80\xaf')).toBe('\\xe0\\x80\\xaf'); // overlong "/"
  });

  it('any bytes give text PostgreSQL stores; valid UTF-8 without NUL comes back unchanged', () => {
    fc.assert(fc.property(binary, (b) => storable(storableBytes(b))));
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 32 }), (t) => {
        const text = t.replaceAll('\0', '');
        expect(storableBytes(Buffer.from(text, 'utf8').toString('latin1'))).toBe(text);
      }),
    );
  });
});

describe('storableText', () => {
  it('keeps surrogate pairs and escapes lone surrogates as their WTF-8 bytes', () => {
    expect(storableText('😀 \ud800 \udfff\0')).toBe('😀 \\xed\\xa0\\x80 \\xed\\xbf\\xbf\\x00');
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 64 }), (t) => storable(storableText(t))));
  });
});
