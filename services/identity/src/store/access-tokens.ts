import type { Queryable } from '@cairn/kit';

export type AccessTokenKind = 'managed_user' | 'oauth_user';

export interface AccessTokenRecord {
  id: string;
  kind: AccessTokenKind;
  userId: number;
  organizationId: string;
  appId: string | null;
  createdAt: Date;
  revokedAt: Date | null;
  revokedReason: string | null;
  /** Issued under a consent that includes the placemaker permission (`mode=placemaker`). */
  placemaker: boolean;
}

interface Row {
  id: string;
  kind: AccessTokenKind;
  user_id: number;
  organization_id: string;
  app_id: string | null;
  created_at: Date;
  revoked_at: Date | null;
  revoked_reason: string | null;
  placemaker: boolean;
}

const toRecord = (r: Row): AccessTokenRecord => ({
  id: r.id,
  kind: r.kind,
  userId: r.user_id,
  organizationId: r.organization_id,
  appId: r.app_id,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
  revokedReason: r.revoked_reason,
  placemaker: r.placemaker,
});

export async function insertAccessToken(
  db: Queryable,
  token: Omit<AccessTokenRecord, 'revokedAt' | 'revokedReason' | 'placemaker'> & {
    authorizationCodeId?: string;
    placemaker?: boolean;
  },
  tokenHash: string,
): Promise<void> {
  await db.query(
    `INSERT INTO access_tokens (id, token_hash, kind, user_id, organization_id, app_id, created_at,
                                authorization_code_id, placemaker)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      token.id,
      tokenHash,
      token.kind,
      token.userId,
      token.organizationId,
      token.appId,
      token.createdAt,
      token.authorizationCodeId ?? null,
      token.placemaker ?? false,
    ],
  );
}

/** Revokes what a replayed authorization code produced; returns the revoked hashes. */
export async function revokeTokensOfCode(db: Queryable, codeId: string, at: Date): Promise<string[]> {
  const { rows } = await db.query<{ token_hash: string }>(
    `UPDATE access_tokens SET revoked_at = $2, revoked_reason = 'authorization code replayed'
      WHERE authorization_code_id = $1 AND revoked_at IS NULL RETURNING token_hash`,
    [codeId, at],
  );
  return rows.map((r) => r.token_hash);
}

/** Revokes one token if it belongs to the app; returns its hash, or undefined. */
export async function revokeAppToken(
  db: Queryable,
  tokenHash: string,
  appId: string,
  at: Date,
): Promise<string | undefined> {
  const { rows } = await db.query<{ token_hash: string }>(
    `UPDATE access_tokens SET revoked_at = $3, revoked_reason = 'revoked by the app'
      WHERE token_hash = $1 AND app_id = $2 AND kind = 'oauth_user' AND revoked_at IS NULL RETURNING token_hash`,
    [tokenHash, appId, at],
  );
  return rows[0]?.token_hash;
}

/** The apps holding live tokens for a user ("Connected apps"). */
export async function connectedApps(
  db: Queryable,
  userId: number,
): Promise<{ appId: string; name: string; organization: string; since: Date; tokens: number }[]> {
  const { rows } = await db.query<{
    app_id: string;
    name: string;
    organization: string;
    since: Date;
    tokens: number;
  }>(
    `SELECT t.app_id, a.name, o.name AS organization, min(t.created_at) AS since, count(*)::int AS tokens
       FROM access_tokens t JOIN apps a ON a.id = t.app_id JOIN organizations o ON o.id = a.organization_id
      WHERE t.user_id = $1 AND t.kind = 'oauth_user' AND t.revoked_at IS NULL
      GROUP BY t.app_id, a.name, o.name ORDER BY a.name`,
    [userId],
  );
  return rows.map((r) => ({
    appId: r.app_id,
    name: r.name,
    organization: r.organization,
    since: r.since,
    tokens: r.tokens,
  }));
}

export async function findAccessTokenByHash(
  db: Queryable,
  tokenHash: string,
): Promise<AccessTokenRecord | undefined> {
  const { rows } = await db.query<Row>('SELECT * FROM access_tokens WHERE token_hash = $1', [tokenHash]);
  return rows[0] && toRecord(rows[0]);
}

export async function findAccessTokenById(db: Queryable, id: string): Promise<AccessTokenRecord | undefined> {
  const { rows } = await db.query<Row>('SELECT * FROM access_tokens WHERE id = $1', [id]);
  return rows[0] && toRecord(rows[0]);
}

/** Revokes every live token of a user (optionally only one app's); returns the revoked hashes. */
export async function revokeUserTokens(
  db: Queryable,
  userId: number,
  at: Date,
  reason: string,
  appId?: string,
): Promise<string[]> {
  const { rows } = await db.query<{ token_hash: string }>(
    `UPDATE access_tokens SET revoked_at = $2, revoked_reason = $3
      WHERE user_id = $1 AND revoked_at IS NULL AND ($4::uuid IS NULL OR app_id = $4)
      RETURNING token_hash`,
    [userId, at, reason, appId ?? null],
  );
  return rows.map((r) => r.token_hash);
}
