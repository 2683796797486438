import type { Queryable } from '@cairn/kit';

export async function findConsent(
  db: Queryable,
  userId: number,
  appId: string,
): Promise<{ placemaker: boolean } | undefined> {
  const { rows } = await db.query<{ placemaker: boolean }>(
    'SELECT placemaker FROM consents WHERE user_id = $1 AND app_id = $2',
    [userId, appId],
  );
  return rows[0];
}

export async function upsertConsent(
  db: Queryable,
  userId: number,
  appId: string,
  placemaker: boolean,
  at: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO consents (user_id, app_id, placemaker, granted_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id, app_id) DO UPDATE
       SET placemaker = consents.placemaker OR EXCLUDED.placemaker, granted_at = EXCLUDED.granted_at`,
    [userId, appId, placemaker, at],
  );
}

export async function deleteConsent(db: Queryable, userId: number, appId: string): Promise<void> {
  await db.query('DELETE FROM consents WHERE user_id = $1 AND app_id = $2', [userId, appId]);
}
