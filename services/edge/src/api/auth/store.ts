import type { Queryable } from '@cairn/kit';
import type { Grant } from './permissions.ts';

export interface TokenRecord {
  id: string;
  accountId: string;
  name: string;
  hint: string;
  createdAt: Date;
  revokedAt: Date | null;
  grants: Grant[];
}

interface Row {
  id: string;
  account_id: string;
  name: string;
  hint: string;
  created_at: Date;
  revoked_at: Date | null;
}

export async function insertToken(db: Queryable, token: TokenRecord, hash: string): Promise<void> {
  await db.query(
    `INSERT INTO edge_api_tokens (id, account_id, name, token_hash, hint, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
    [token.id, token.accountId, token.name, hash, token.hint, token.createdAt],
  );
  for (const g of token.grants) {
    await db.query('INSERT INTO edge_api_token_grants (token_id, zone_id, permission) VALUES ($1, $2, $3)', [
      token.id,
      g.zoneId,
      g.permission,
    ]);
  }
}

async function withGrants(db: Queryable, rows: Row[]): Promise<TokenRecord[]> {
  if (rows.length === 0) return [];
  const { rows: grants } = await db.query<{ token_id: string; zone_id: string; permission: string }>(
    'SELECT token_id, zone_id, permission FROM edge_api_token_grants WHERE token_id = ANY($1) ORDER BY zone_id, permission',
    [rows.map((r) => r.id)],
  );
  return rows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    name: r.name,
    hint: r.hint,
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
    grants: grants
      .filter((g) => g.token_id === r.id)
      .map((g) => ({ zoneId: g.zone_id, permission: g.permission })),
  }));
}

export async function findLiveTokenByHash(db: Queryable, hash: string): Promise<TokenRecord | undefined> {
  const { rows } = await db.query<Row>(
    'SELECT * FROM edge_api_tokens WHERE token_hash = $1 AND revoked_at IS NULL',
    [hash],
  );
  return (await withGrants(db, rows))[0];
}

export async function listTokens(db: Queryable): Promise<TokenRecord[]> {
  const { rows } = await db.query<Row>('SELECT * FROM edge_api_tokens ORDER BY created_at, id');
  return withGrants(db, rows);
}

export async function revokeTokenRow(db: Queryable, id: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE edge_api_tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL',
    [id, at],
  );
  return rowCount > 0;
}

export async function grantsOfToken(db: Queryable, tokenId: string): Promise<Grant[]> {
  const { rows } = await db.query<{ zone_id: string; permission: string }>(
    'SELECT zone_id, permission FROM edge_api_token_grants WHERE token_id = $1 ORDER BY zone_id, permission',
    [tokenId],
  );
  return rows.map((g) => ({ zoneId: g.zone_id, permission: g.permission }));
}
