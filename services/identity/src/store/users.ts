import type { Queryable } from '@cairn/kit';

export interface UserRecord {
  id: number;
  kind: 'managed' | 'account';
  organizationId: string | null;
  firstName: string | null;
  lastName: string | null;
  createdAt: Date;
  deletedAt: Date | null;
}

interface Row {
  id: number;
  kind: 'managed' | 'account';
  organization_id: string | null;
  first_name: string | null;
  last_name: string | null;
  created_at: Date;
  deleted_at: Date | null;
}

const toRecord = (r: Row): UserRecord => ({
  id: r.id,
  kind: r.kind,
  organizationId: r.organization_id,
  firstName: r.first_name,
  lastName: r.last_name,
  createdAt: r.created_at,
  deletedAt: r.deleted_at,
});

export async function insertManagedUser(
  db: Queryable,
  user: { organizationId: string; firstName: string | null; lastName: string | null; createdAt: Date },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO users (kind, organization_id, first_name, last_name, created_at)
     VALUES ('managed', $1, $2, $3, $4) RETURNING id`,
    [user.organizationId, user.firstName, user.lastName, user.createdAt],
  );
  return rows[0]!.id;
}

/** A live managed user of this organization, locked for the rest of the transaction. */
export async function findManagedUserForUpdate(
  db: Queryable,
  organizationId: string,
  userId: number,
): Promise<UserRecord | undefined> {
  const { rows } = await db.query<Row>(
    `SELECT * FROM users
      WHERE id = $1 AND kind = 'managed' AND organization_id = $2 AND deleted_at IS NULL
      FOR UPDATE`,
    [userId, organizationId],
  );
  return rows[0] && toRecord(rows[0]);
}

export async function markUserDeleted(db: Queryable, userId: number, at: Date): Promise<void> {
  await db.query('UPDATE users SET deleted_at = $2 WHERE id = $1', [userId, at]);
}

export async function findUserById(db: Queryable, userId: number): Promise<UserRecord | undefined> {
  const { rows } = await db.query<Row>('SELECT * FROM users WHERE id = $1', [userId]);
  return rows[0] && toRecord(rows[0]);
}
