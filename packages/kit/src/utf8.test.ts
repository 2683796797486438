import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUtf8, firstInvalidUtf8Byte } from './utf8.ts';

describe('strict UTF-8', () => {
  it('agrees with the platform decoder on arbitrary bytes, and reports where it fails', () => {
    const platform = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        let valid = true;
        try {
          platform.decode(bytes);
        } catch {
          valid = false;
        }
        const at = firstInvalidUtf8Byte(bytes);
        expect(at === -1).toBe(valid);
        if (!valid) expect(() => platform.decode(bytes.subarray(0, at))).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });

  it('round-trips any well-formed text, byte order mark included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(decodeUtf8(Buffer.from(`\uFEFF${text}`))).toEqual({ text: `\uFEFF${text}` });
      }),
    );
  });

  it('names the bad byte and its offset', () => {
    expect(decodeUtf8(Buffer.from([0x61, 0x62, 0xff]))).toEqual({
      problem: 'is not valid UTF-8: byte 0xFF at offset 2',
    });
    // An encoded surrogate (CESU-8) and an overlong NUL are refused, not decoded.
    expect(firstInvalidUtf8Byte(Buffer.from([0xed, 0xa0, 0x80]))).toBe(0);
    expect(firstInvalidUtf8Byte(Buffer.from([0x41, 0xc0, 0x80]))).toBe(1);
  });
});
