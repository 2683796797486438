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
 * Marks the code consumed and returns it. The conditional UPDATE takes the row lock, so of two concurrent
 * exchanges exactly one sees the code unconsumed; the other (and any later one) gets `alreadyConsumed`.
 */
export async function consumeAuthorizationCode(
  db: Queryable,
  codeHash: string,
  at: Date,
): Promise<{ code: AuthorizationCode; alreadyConsumed: boolean } | undefined> {
  const fresh = await db.query<Row>(
    'UPDATE authorization_codes SET consumed_at = $2 WHERE code_hash = $1 AND consumed_at IS NULL RETURNING *',
    [codeHash, at],
  );
  if (fresh.rows[0]) return { code: toCode(fresh.rows[0]), alreadyConsumed: false };
  const used = await db.query<Row>('SELECT * FROM authorization_codes WHERE code_hash = $1', [codeHash]);
  return used.rows[0] && { code: toCode(used.rows[0]), alreadyConsumed: true };
}
