import type { Queryable } from '@cairn/kit';

export interface SessionTokenRecord {
  id: string;
  accessTokenId: string;
  userId: number;
  appId: string;
  organizationId: string;
  createdAt: Date;
  expiresAt: Date;
}

export async function insertSessionToken(
  db: Queryable,
  token: SessionTokenRecord,
  tokenHash: string,
): Promise<void> {
  await db.query(
    `INSERT INTO session_tokens (id, token_hash, access_token_id, user_id, app_id, organization_id, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      token.id,
      tokenHash,
      token.accessTokenId,
      token.userId,
      token.appId,
      token.organizationId,
      token.createdAt,
      token.expiresAt,
    ],
  );
}

export type RedeemOutcome =
  | { status: 'redeemed'; token: SessionTokenRecord }
  | { status: 'unknown' | 'expired' | 'used' | 'revoked' };

/** Redeems a session token once: valid, unexpired, unused, and its access token still live. */
export async function redeemSessionTokenRow(
  db: Queryable,
  tokenHash: string,
  now: Date,
): Promise<RedeemOutcome> {
  const { rows } = await db.query<{
    id: string;
    access_token_id: string;
    user_id: number;
    app_id: string;
    organization_id: string;
    created_at: Date;
    expires_at: Date;
    redeemed_at: Date | null;
    access_revoked_at: Date | null;
  }>(
    `SELECT s.*, a.revoked_at AS access_revoked_at
       FROM session_tokens s JOIN access_tokens a ON a.id = s.access_token_id
      WHERE s.token_hash = $1
      FOR UPDATE OF s`,
    [tokenHash],
  );
  const r = rows[0];
  if (!r) return { status: 'unknown' };
  if (r.redeemed_at) return { status: 'used' };
  if (r.expires_at.getTime() <= now.getTime()) return { status: 'expired' };
  if (r.access_revoked_at) return { status: 'revoked' };
  await db.query('UPDATE session_tokens SET redeemed_at = $2 WHERE id = $1', [r.id, now]);
  return {
    status: 'redeemed',
    token: {
      id: r.id,
      accessTokenId: r.access_token_id,
      userId: r.user_id,
      appId: r.app_id,
      organizationId: r.organization_id,
      createdAt: r.created_at,
      expiresAt: r.expires_at,
    },
  };
}
