import type { Queryable } from '@cairn/kit';

export interface Filter {
  id: string;
  zoneId: string;
  expression: string;
  paused: boolean;
  description: string;
  ref: string;
  createdOn: Date;
  modifiedOn: Date;
}

interface Row {
  id: string;
  zone_id: string;
  expression: string;
  paused: boolean;
  description: string;
  ref: string;
  created_on: Date;
  modified_on: Date;
}

const toFilter = (r: Row): Filter => ({
  id: r.id,
  zoneId: r.zone_id,
  expression: r.expression,
  paused: r.paused,
  description: r.description,
  ref: r.ref,
  createdOn: r.created_on,
  modifiedOn: r.modified_on,
});

export async function listFilters(db: Queryable, zoneId: string): Promise<Filter[]> {
  const { rows } = await db.query<Row>(
    'SELECT * FROM edge_filters WHERE zone_id = $1 ORDER BY created_on, id',
    [zoneId],
  );
  return rows.map(toFilter);
}

export async function findFilter(db: Queryable, zoneId: string, id: string): Promise<Filter | undefined> {
  const { rows } = await db.query<Row>('SELECT * FROM edge_filters WHERE zone_id = $1 AND id = $2', [
    zoneId,
    id,
  ]);
  return rows[0] && toFilter(rows[0]);
}

export async function saveFilter(db: Queryable, f: Filter): Promise<void> {
  await db.query(
    `INSERT INTO edge_filters (id, zone_id, expression, paused, description, ref, created_on, modified_on)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (id) DO UPDATE SET expression = EXCLUDED.expression, paused = EXCLUDED.paused,
       description = EXCLUDED.description, ref = EXCLUDED.ref, modified_on = EXCLUDED.modified_on`,
    [f.id, f.zoneId, f.expression, f.paused, f.description, f.ref, f.createdOn, f.modifiedOn],
  );
}

export async function filterUsers(db: Queryable, filterId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM edge_firewall_rules WHERE filter_id = $1 ORDER BY id',
    [filterId],
  );
  return rows.map((r) => r.id);
}

export async function deleteFilterRow(db: Queryable, zoneId: string, id: string): Promise<void> {
  await db.query('DELETE FROM edge_filters WHERE zone_id = $1 AND id = $2', [zoneId, id]);
}
