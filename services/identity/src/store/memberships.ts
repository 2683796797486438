import type { Queryable } from '@cairn/kit';

export type Role = 'owner' | 'member';

export async function upsertMembership(
  db: Queryable,
  organizationId: string,
  userId: number,
  role: Role,
  at: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO memberships (organization_id, user_id, role, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (organization_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
    [organizationId, userId, role, at],
  );
}

export async function isMember(db: Queryable, organizationId: string, userId: number): Promise<boolean> {
  const { rowCount } = await db.query(
    'SELECT 1 FROM memberships WHERE organization_id = $1 AND user_id = $2',
    [organizationId, userId],
  );
  return rowCount > 0;
}

export async function organizationsOf(
  db: Queryable,
  userId: number,
): Promise<{ id: string; name: string; role: Role }[]> {
  const { rows } = await db.query<{ id: string; name: string; role: Role }>(
    `SELECT o.id, o.name, m.role FROM memberships m JOIN organizations o ON o.id = m.organization_id
      WHERE m.user_id = $1 ORDER BY o.name`,
    [userId],
  );
  return rows;
}
