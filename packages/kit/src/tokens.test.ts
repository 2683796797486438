import { describe, expect, it } from 'vitest';
import { generateToken, hashToken, TOKEN_PREFIXES, tokenHint, tokenKindOf } from './tokens.ts';

describe('tokens', () => {
  it('carry their kind prefix and 256 random bits in base64url', () => {
    for (const kind of Object.keys(TOKEN_PREFIXES) as (keyof typeof TOKEN_PREFIXES)[]) {
      const token = generateToken(kind);
      expect(token.startsWith(TOKEN_PREFIXES[kind])).toBe(true);
      const body = token.slice(TOKEN_PREFIXES[kind].length);
      expect(Buffer.from(body, 'base64url')).toHaveLength(32);
      expect(tokenKindOf(token)).toBe(kind);
    }
  });

  it('are unique', () => {
    const seen = new Set(Array.from({ length: 1000 }, () => generateToken('serviceKey')));
    expect(seen.size).toBe(1000);
  });

  it('refuse unknown prefixes and malformed bodies', () => {
    expect(tokenKindOf('abc')).toBeUndefined();
    expect(tokenKindOf('svk_short')).toBeUndefined();
    expect(tokenKindOf(`svk_${'a'.repeat(42)}!`)).toBeUndefined();
  });

  it('are stored as SHA-256 and hinted without the secret', () => {
    const token = generateToken('serviceKey');
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(token)).not.toContain(token.slice(4, 20));
    const hint = tokenHint(token);
    expect(hint).toMatch(/^svk_.{4}….{4}$/);
  });
});
