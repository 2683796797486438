import type { Queryable } from '@cairn/kit';

export interface Organization {
  id: string;
  name: string;
  createdAt: Date;
}

interface Row {
  id: string;
  name: string;
  created_at: Date;
}

const toOrganization = (r: Row): Organization => ({ id: r.id, name: r.name, createdAt: r.created_at });

export async function insertOrganization(db: Queryable, org: Organization): Promise<void> {
  await db.query('INSERT INTO organizations (id, name, created_at) VALUES ($1, $2, $3)', [
    org.id,
    org.name,
    org.createdAt,
  ]);
}

export async function findOrganization(db: Queryable, idOrName: string): Promise<Organization | undefined> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrName);
  const { rows } = await db.query<Row>(
    isUuid ? 'SELECT * FROM organizations WHERE id = $1' : 'SELECT * FROM organizations WHERE name = $1',
    [idOrName],
  );
  return rows[0] && toOrganization(rows[0]);
}

export async function listOrganizations(db: Queryable): Promise<Organization[]> {
  const { rows } = await db.query<Row>('SELECT * FROM organizations ORDER BY created_at, name');
  return rows.map(toOrganization);
}
