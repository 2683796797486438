import { randomBytes } from 'node:crypto';
import type { Queryable } from '@cairn/kit';

export async function getMeta(db: Queryable, key: string): Promise<string | undefined> {
  const { rows } = await db.query<{ value: string }>('SELECT value FROM places_meta WHERE key = $1', [key]);
  return rows[0]?.value;
}

export async function setMeta(db: Queryable, key: string, value: string): Promise<void> {
  await db.query(
    'INSERT INTO places_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
    [key, value],
  );
}

/** Sets key only when it has no value yet; true when this call set it. */
export async function claimMeta(db: Queryable, key: string, value: string): Promise<boolean> {
  const { rows } = await db.query(
    'INSERT INTO places_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING key',
    [key, value],
  );
  return rows.length === 1;
}

/** The installation's secret for signing cursors: made once, kept in the database, shared by every process. */
export async function cursorSecret(db: Queryable): Promise<Buffer> {
  await claimMeta(db, 'cursor_secret', randomBytes(32).toString('base64url'));
  return Buffer.from((await getMeta(db, 'cursor_secret'))!, 'base64url');
}
