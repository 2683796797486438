import type { Queryable } from '@cairn/kit';

export interface AppRecord {
  id: string;
  organizationId: string;
  name: string;
  clientId: string;
  secretHint: string;
  redirectUris: string[];
  embedOrigins: string[];
  firstParty: boolean;
  /** Authorization requests must carry an S256 code_challenge (see oauth/pkce-policy.ts). */
  pkceRequired: boolean;
  createdAt: Date;
  revokedAt: Date | null;
}

interface Row {
  id: string;
  organization_id: string;
  name: string;
  client_id: string;
  client_secret_hash: string;
  secret_hint: string;
  redirect_uris: string[];
  embed_origins: string[];
  first_party: boolean;
  pkce_required: boolean;
  created_at: Date;
  revoked_at: Date | null;
}

const toRecord = (r: Row): AppRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  name: r.name,
  clientId: r.client_id,
  secretHint: r.secret_hint,
  redirectUris: r.redirect_uris,
  embedOrigins: r.embed_origins,
  firstParty: r.first_party,
  pkceRequired: r.pkce_required,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

export async function insertApp(db: Queryable, app: AppRecord, secretHash: string): Promise<void> {
  await db.query(
    `INSERT INTO apps (id, organization_id, name, client_id, client_secret_hash, secret_hint, redirect_uris,
                       embed_origins, first_party, pkce_required, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10, $11)`,
    [
      app.id,
      app.organizationId,
      app.name,
      app.clientId,
      secretHash,
      app.secretHint,
      JSON.stringify(app.redirectUris),
      JSON.stringify(app.embedOrigins),
      app.firstParty,
      app.pkceRequired,
      app.createdAt,
    ],
  );
}

/** Sets whether a live app requires PKCE; false when there is no such live app (in that organization). */
export async function updateAppPkceRequired(
  db: Queryable,
  id: string,
  organizationId: string,
  required: boolean,
): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE apps SET pkce_required = $3 WHERE id = $1 AND organization_id = $2 AND revoked_at IS NULL',
    [id, organizationId, required],
  );
  return rowCount > 0;
}

/** A live app by client_id, with its secret hash for client authentication. */
export async function findAppByClientId(
  db: Queryable,
  clientId: string,
): Promise<{ app: AppRecord; secretHash: string } | undefined> {
  const { rows } = await db.query<Row>('SELECT * FROM apps WHERE client_id = $1 AND revoked_at IS NULL', [
    clientId,
  ]);
  return rows[0] && { app: toRecord(rows[0]), secretHash: rows[0].client_secret_hash };
}

export async function findAppById(db: Queryable, id: string): Promise<AppRecord | undefined> {
  const { rows } = await db.query<Row>('SELECT * FROM apps WHERE id = $1', [id]);
  return rows[0] && toRecord(rows[0]);
}

export async function listApps(db: Queryable, organizationId?: string): Promise<AppRecord[]> {
  const { rows } = organizationId
    ? await db.query<Row>('SELECT * FROM apps WHERE organization_id = $1 ORDER BY created_at, id', [
        organizationId,
      ])
    : await db.query<Row>('SELECT * FROM apps ORDER BY created_at, id');
  return rows.map(toRecord);
}

export async function markAppRevoked(
  db: Queryable,
  id: string,
  at: Date,
  organizationId?: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE apps SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL AND ($3::uuid IS NULL OR organization_id = $3)`,
    [id, at, organizationId ?? null],
  );
  return rowCount > 0;
}
