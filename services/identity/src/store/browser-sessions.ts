import type { Queryable } from '@cairn/kit';

export interface BrowserSession {
  id: string;
  userId: number;
  appId: string | null;
  /** The access token an editing-UI session was opened from (through a session token); null otherwise. */
  accessTokenId: string | null;
  expiresAt: Date;
}

export async function insertBrowserSession(
  db: Queryable,
  session: BrowserSession & { createdAt: Date },
  tokenHash: string,
): Promise<void> {
  await db.query(
    `INSERT INTO browser_sessions (id, token_hash, user_id, app_id, access_token_id, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      session.id,
      tokenHash,
      session.userId,
      session.appId,
      session.accessTokenId,
      session.createdAt,
      session.expiresAt,
    ],
  );
}

export async function findLiveBrowserSession(
  db: Queryable,
  tokenHash: string,
  now: Date,
): Promise<BrowserSession | undefined> {
  const { rows } = await db.query<{
    id: string;
    user_id: number;
    app_id: string | null;
    access_token_id: string | null;
    expires_at: Date;
  }>(
    `SELECT id, user_id, app_id, access_token_id, expires_at FROM browser_sessions
      WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2`,
    [tokenHash, now],
  );
  const r = rows[0];
  return (
    r && {
      id: r.id,
      userId: r.user_id,
      appId: r.app_id,
      accessTokenId: r.access_token_id,
      expiresAt: r.expires_at,
    }
  );
}

export async function revokeBrowserSession(db: Queryable, tokenHash: string, at: Date): Promise<void> {
  await db.query('UPDATE browser_sessions SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL', [
    tokenHash,
    at,
  ]);
}

/** Ends the editing-UI sessions a user opened through an app (on disconnect). */
export async function revokeAppBrowserSessions(
  db: Queryable,
  userId: number,
  appId: string,
  at: Date,
): Promise<void> {
  await db.query(
    'UPDATE browser_sessions SET revoked_at = $3 WHERE user_id = $1 AND app_id = $2 AND revoked_at IS NULL',
    [userId, appId, at],
  );
}
