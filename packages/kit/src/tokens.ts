import { createHash, randomBytes, randomUUID } from 'node:crypto';

/**
 * Every secret Cairn issues is 256 random bits, base64url, behind a prefix naming its kind, so a leaked
 * token is recognisable (secret scanners) and a token of the wrong kind is refused before any lookup.
 * Only the SHA-256 of a token is stored.
 */
export const TOKEN_PREFIXES = {
  serviceKey: 'svk_',
  managedUser: 'mu_',
  accessToken: 'at_',
  refreshToken: 'rt_',
  sessionToken: 'st_',
  authorizationCode: 'ac_',
  clientSecret: 'cs_',
  edgeApiToken: 'cet_',
  browserSession: 'bs_',
} as const;

export type TokenKind = keyof typeof TOKEN_PREFIXES;

const TOKEN_BODY = /^[A-Za-z0-9_-]{43}$/;

export function generateToken(kind: TokenKind): string {
  return TOKEN_PREFIXES[kind] + randomBytes(32).toString('base64url');
}

/** The kind a token claims by its prefix, or undefined when it has no known prefix or a malformed body. */
export function tokenKindOf(token: string): TokenKind | undefined {
  for (const [kind, prefix] of Object.entries(TOKEN_PREFIXES) as [TokenKind, string][]) {
    if (token.startsWith(prefix)) {
      return TOKEN_BODY.test(token.slice(prefix.length)) ? kind : undefined;
    }
  }
  return undefined;
}

/** Hex SHA-256: what the database keeps instead of the token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A short, non-secret hint for listings ("svk_AbCd…wxyz"). */
export function tokenHint(token: string): string {
  const prefix = Object.values(TOKEN_PREFIXES).find((p) => token.startsWith(p)) ?? '';
  const body = token.slice(prefix.length);
  return `${prefix}${body.slice(0, 4)}…${body.slice(-4)}`;
}

export function newId(): string {
  return randomUUID();
}
