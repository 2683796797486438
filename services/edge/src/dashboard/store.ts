import type { Queryable } from '@cairn/kit';

export interface DashboardUser {
  id: string;
  accountId: string;
  email: string;
  name: string;
  createdAt: Date;
}

interface UserRow {
  id: string;
  account_id: string;
  email: string;
  name: string;
  password_hash: string;
  created_at: Date;
}

const toUser = (r: UserRow): DashboardUser => ({
  id: r.id,
  accountId: r.account_id,
  email: r.email,
  name: r.name,
  createdAt: r.created_at,
});

export async function insertUser(db: Queryable, user: DashboardUser, passwordHash: string): Promise<void> {
  await db.query(
    `INSERT INTO edge_dashboard_users (id, account_id, email, name, password_hash, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [user.id, user.accountId, user.email, user.name, passwordHash, user.createdAt],
  );
}

export async function findUserByEmail(
  db: Queryable,
  email: string,
): Promise<(DashboardUser & { passwordHash: string }) | undefined> {
  const { rows } = await db.query<UserRow>('SELECT * FROM edge_dashboard_users WHERE email = $1', [email]);
  const row = rows[0];
  return row && { ...toUser(row), passwordHash: row.password_hash };
}

export async function listUsers(db: Queryable): Promise<DashboardUser[]> {
  const { rows } = await db.query<UserRow>('SELECT * FROM edge_dashboard_users ORDER BY created_at, id');
  return rows.map(toUser);
}

export async function updatePasswordHash(db: Queryable, userId: string, passwordHash: string): Promise<void> {
  await db.query('UPDATE edge_dashboard_users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
  // A new password ends every session opened with the old one.
  await db.query('DELETE FROM edge_dashboard_sessions WHERE user_id = $1', [userId]);
}

export interface SessionRow {
  accountId: string;
  userId: string | null;
  tokenId: string | null;
  csrf: string;
  expiresAt: Date;
  /** The person's email, or the token's name. */
  actorName: string;
}

export async function insertSession(
  db: Queryable,
  hash: string,
  s: Omit<SessionRow, 'actorName'> & { createdAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO edge_dashboard_sessions (session_hash, account_id, user_id, token_id, csrf, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [hash, s.accountId, s.userId, s.tokenId, s.csrf, s.createdAt, s.expiresAt],
  );
}

/** A session that has not expired and whose token, if it was opened with one, is not revoked. */
export async function findLiveSession(
  db: Queryable,
  hash: string,
  now: Date,
): Promise<SessionRow | undefined> {
  const { rows } = await db.query<{
    account_id: string;
    user_id: string | null;
    token_id: string | null;
    csrf: string;
    expires_at: Date;
    actor_name: string;
  }>(
    `SELECT s.account_id, s.user_id, s.token_id, s.csrf, s.expires_at, coalesce(u.email, t.name) AS actor_name
       FROM edge_dashboard_sessions s
       LEFT JOIN edge_dashboard_users u ON u.id = s.user_id
       LEFT JOIN edge_api_tokens t ON t.id = s.token_id
      WHERE s.session_hash = $1 AND s.expires_at > $2 AND (s.token_id IS NULL OR t.revoked_at IS NULL)`,
    [hash, now],
  );
  const r = rows[0];
  return (
    r && {
      accountId: r.account_id,
      userId: r.user_id,
      tokenId: r.token_id,
      csrf: r.csrf,
      expiresAt: r.expires_at,
      actorName: r.actor_name,
    }
  );
}

export async function deleteSession(db: Queryable, hash: string): Promise<void> {
  await db.query('DELETE FROM edge_dashboard_sessions WHERE session_hash = $1', [hash]);
}

export async function deleteExpiredSessions(db: Queryable, now: Date): Promise<void> {
  await db.query('DELETE FROM edge_dashboard_sessions WHERE expires_at <= $1', [now]);
}
