import type { Queryable } from '@cairn/kit';

export interface AuthorizationCode {
  id: string;
  appId: string;
  userId: number;
  redirectUri: string;
  codeChallenge: string | null;
  placemaker: boolean;
  createdAt: Date;
  expiresAt: Date;
}

interface Row {
  id: string;
  app_id: string;
  user_id: number;
  redirect_uri: string;
  code_challenge: string | null;
  placemaker: boolean;
  created_at: Date;
  expires_at: Date;
  consumed_at: Date | null;
}

export async function insertAuthorizationCode(
  db: Queryable,
  code: AuthorizationCode,
  codeHash: string,
): Promise<void> {
  await db.query(
    `INSERT INTO authorization_codes (id, code_hash, app_id, user_id, redirect_uri, code_challenge, placemaker,
                                      created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      code.id,
      codeHash,
      code.appId,
      code.userId,
      code.redirectUri,
      code.codeChallenge,
      code.placemaker,
      code.createdAt,
      code.expiresAt,
    ],
  );
}

const toCode = (r: Row): AuthorizationCode => ({
  id: r.id,
  appId: r.app_id,
  userId: r.user_id,
  redirectUri: r.redirect_uri,
  codeChallenge: r.code_challenge,
  placemaker: r.placemaker,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

/**
 * The code for an exchange, its row locked until the transaction ends: of two concurrent exchanges the
 * second waits, then sees the code consumed by the first. `consumed` says whether a successful exchange
 * already used it.
 */
export async function lockAuthorizationCode(
  db: Queryable,
  codeHash: string,
): Promise<{ code: AuthorizationCode; consumed: boolean } | undefined> {
  const { rows } = await db.query<Row>('SELECT * FROM authorization_codes WHERE code_hash = $1 FOR UPDATE', [
    codeHash,
  ]);
  return rows[0] && { code: toCode(rows[0]), consumed: rows[0].consumed_at !== null };
}

/** Spends the code: only a successful exchange does (RFC 6749 §4.1.2: used once). */
export async function markAuthorizationCodeConsumed(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query('UPDATE authorization_codes SET consumed_at = $2 WHERE id = $1', [id, at]);
}
