import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, paramsDigest } from './cursor.ts';

const secret = randomBytes(32);
const digest = paramsDigest({ ll: [1, 2], limit: 10 });
const state = { p: digest, t: 1_750_000_000_000, k: 123.5, i: 'abc' };

describe('cursors', () => {
  it('round-trip', () => {
    expect(decodeCursor(secret, encodeCursor(secret, state), digest)).toEqual(state);
  });

  it('refuse any edit, another secret, or other parameters', () => {
    const cursor = encodeCursor(secret, state);
    const [body, mac] = cursor.split('.') as [string, string];
    const edited = `${Buffer.from(JSON.stringify({ ...state, k: 0 })).toString('base64url')}.${mac}`;
    expect(() => decodeCursor(secret, edited, digest)).toThrow(/cursor/);
    expect(() => decodeCursor(secret, `${body}.${mac.slice(1)}x`, digest)).toThrow(/altered/);
    expect(() => decodeCursor(randomBytes(32), cursor, digest)).toThrow(/altered/);
    expect(() => decodeCursor(secret, cursor, paramsDigest({ ll: [1, 2], limit: 11 }))).toThrow(
      /other parameters/,
    );
    expect(() => decodeCursor(secret, 'garbage', digest)).toThrow(/cursor/);
  });
});
