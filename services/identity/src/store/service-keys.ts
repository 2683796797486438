import type { Queryable } from '@cairn/kit';

export interface ServiceKeyRecord {
  id: string;
  organizationId: string;
  appId: string | null;
  name: string;
  hint: string;
  createdAt: Date;
  revokedAt: Date | null;
}

interface Row {
  id: string;
  organization_id: string;
  app_id: string | null;
  name: string;
  hint: string;
  created_at: Date;
  revoked_at: Date | null;
}

const toRecord = (r: Row): ServiceKeyRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  appId: r.app_id,
  name: r.name,
  hint: r.hint,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

export async function insertServiceKey(
  db: Queryable,
  key: ServiceKeyRecord,
  tokenHash: string,
): Promise<void> {
  await db.query(
    `INSERT INTO service_keys (id, organization_id, app_id, name, token_hash, hint, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [key.id, key.organizationId, key.appId, key.name, tokenHash, key.hint, key.createdAt],
  );
}

export async function findServiceKeyByHash(
  db: Queryable,
  tokenHash: string,
): Promise<ServiceKeyRecord | undefined> {
  const { rows } = await db.query<Row>('SELECT * FROM service_keys WHERE token_hash = $1', [tokenHash]);
  return rows[0] && toRecord(rows[0]);
}

export async function listServiceKeys(db: Queryable, organizationId?: string): Promise<ServiceKeyRecord[]> {
  const { rows } = organizationId
    ? await db.query<Row>('SELECT * FROM service_keys WHERE organization_id = $1 ORDER BY created_at, id', [
        organizationId,
      ])
    : await db.query<Row>('SELECT * FROM service_keys ORDER BY created_at, id');
  return rows.map(toRecord);
}

/** Marks the key revoked; returns its hash (for cache invalidation) or undefined when no live key matched. */
export async function revokeServiceKeyRow(
  db: Queryable,
  id: string,
  at: Date,
  organizationId?: string,
): Promise<string | undefined> {
  const { rows } = await db.query<{ token_hash: string }>(
    `UPDATE service_keys SET revoked_at = $2
      WHERE id = $1 AND revoked_at IS NULL AND ($3::uuid IS NULL OR organization_id = $3)
      RETURNING token_hash`,
    [id, at, organizationId ?? null],
  );
  return rows[0]?.token_hash;
}
