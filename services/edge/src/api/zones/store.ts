import type { Queryable } from '@cairn/kit';
import type { PlanName } from './plans.ts';

export type MigrationState = 'default' | 'start' | 'validation' | 'complete';

/** `pending`: the zone overlaps another account's zone and waits for that account's TXT record. */
export type ZoneStatus = 'pending' | 'active';

export interface Zone {
  id: string;
  accountId: string;
  accountName: string;
  name: string;
  plan: PlanName;
  paused: boolean;
  createdOn: Date;
  modifiedOn: Date;
  /** Where the zone stands in the upgrade to the new WAF (issue 8 moves it; never backwards). */
  wafMigrationState: MigrationState;
  wafMigrationChangedAt: Date;
  /** Where the edge proxy sends the zone's traffic (`http://127.0.0.1:3000`); null: not proxied. */
  origin: string | null;
  /** Only active zones take traffic (see ownership.ts). */
  status: ZoneStatus;
  /** The value the overlapped account's TXT record must hold (pending zones). */
  verificationKey: string | null;
}

interface Row {
  id: string;
  account_id: string;
  account_name: string;
  name: string;
  plan: PlanName;
  paused: boolean;
  created_on: Date;
  modified_on: Date;
  waf_migration_state: MigrationState;
  waf_migration_changed_at: Date;
  origin: string | null;
  status: ZoneStatus;
  verification_key: string | null;
}

const toZone = (r: Row): Zone => ({
  id: r.id,
  accountId: r.account_id,
  accountName: r.account_name,
  name: r.name,
  plan: r.plan,
  paused: r.paused,
  createdOn: r.created_on,
  modifiedOn: r.modified_on,
  wafMigrationState: r.waf_migration_state,
  wafMigrationChangedAt: r.waf_migration_changed_at,
  origin: r.origin ?? null,
  status: r.status,
  verificationKey: r.verification_key,
});

const SELECT = `SELECT z.*, a.name AS account_name FROM edge_zones z JOIN edge_accounts a ON a.id = z.account_id`;

export async function insertZone(
  db: Queryable,
  z: Omit<Zone, 'accountName' | 'status' | 'verificationKey'> &
    Partial<Pick<Zone, 'status' | 'verificationKey'>>,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO edge_zones (id, account_id, name, plan, paused, created_on, modified_on, waf_migration_state, waf_migration_changed_at, origin, status, verification_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (name) DO NOTHING`,
    [
      z.id,
      z.accountId,
      z.name,
      z.plan,
      z.paused,
      z.createdOn,
      z.modifiedOn,
      z.wafMigrationState,
      z.wafMigrationChangedAt,
      z.origin,
      z.status ?? 'active',
      z.verificationKey ?? null,
    ],
  );
  return rowCount > 0;
}

export async function findZone(db: Queryable, id: string): Promise<Zone | undefined> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE z.id = $1`, [id]);
  return rows[0] && toZone(rows[0]);
}

/**
 * The zone row locked until the caller's transaction ends: writers that must see a consistent zone (the
 * WAF upgrade, entry point writes) serialise on it.
 */
export async function lockZone(tx: Queryable, id: string): Promise<Zone | undefined> {
  const { rows } = await tx.query<Row>(`${SELECT} WHERE z.id = $1 FOR UPDATE OF z`, [id]);
  return rows[0] && toZone(rows[0]);
}

export async function findZoneByName(db: Queryable, name: string): Promise<Zone | undefined> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE z.name = $1`, [name]);
  return rows[0] && toZone(rows[0]);
}

/** Zones whose name is `name`, a parent domain of it, or a subdomain of it (the tree it overlaps). */
export async function overlappingZones(db: Queryable, name: string): Promise<Zone[]> {
  const { rows } = await db.query<Row>(
    `${SELECT} WHERE z.name = $1 OR $1 LIKE '%.' || z.name OR z.name LIKE '%.' || $1 ORDER BY z.name`,
    [name],
  );
  return rows.map(toZone);
}

/** Serialises zone creation until the transaction ends (the overlap check and the insert are one step). */
export async function lockZoneNames(tx: Queryable): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('cairn_edge_zone_names'))`);
}

/** Marks a pending zone active (its ownership was verified). */
export async function activateZone(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE edge_zones SET status = 'active', verification_key = NULL, modified_on = $2 WHERE id = $1`,
    [id, at],
  );
}

export async function listZones(db: Queryable, accountId?: string): Promise<Zone[]> {
  const { rows } = accountId
    ? await db.query<Row>(`${SELECT} WHERE z.account_id = $1 ORDER BY z.name`, [accountId])
    : await db.query<Row>(`${SELECT} ORDER BY z.name`);
  return rows.map(toZone);
}

export async function updateZone(
  db: Queryable,
  id: string,
  change: { plan?: PlanName; paused?: boolean; wafMigrationState?: MigrationState; origin?: string | null },
  at: Date,
): Promise<void> {
  await db.query(
    `UPDATE edge_zones SET plan = COALESCE($2, plan), paused = COALESCE($3, paused), modified_on = $4,
       waf_migration_state = COALESCE($5, waf_migration_state),
       waf_migration_changed_at = CASE WHEN $5::text IS NULL OR $5::text = waf_migration_state THEN waf_migration_changed_at ELSE $4 END,
       origin = CASE WHEN $6 THEN $7 ELSE origin END
     WHERE id = $1`,
    [
      id,
      change.plan ?? null,
      change.paused ?? null,
      at,
      change.wafMigrationState ?? null,
      change.origin !== undefined,
      change.origin ?? null,
    ],
  );
}

export async function deleteZoneRow(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM edge_zones WHERE id = $1', [id]);
  return rowCount > 0;
}
