import type { Queryable } from '@cairn/kit';

export interface PackageSettings {
  sensitivity: string;
  actionMode: string;
}

export const DEFAULT_ANOMALY_SETTINGS: PackageSettings = { sensitivity: 'high', actionMode: 'challenge' };

export async function readPackageSettings(
  db: Queryable,
  zoneId: string,
  packageId: string,
): Promise<PackageSettings> {
  const { rows } = await db.query<{ sensitivity: string; action_mode: string }>(
    'SELECT sensitivity, action_mode FROM edge_waf_packages WHERE zone_id = $1 AND package_id = $2',
    [zoneId, packageId],
  );
  return rows[0]
    ? { sensitivity: rows[0].sensitivity, actionMode: rows[0].action_mode }
    : DEFAULT_ANOMALY_SETTINGS;
}

export async function writePackageSettings(
  db: Queryable,
  zoneId: string,
  packageId: string,
  s: PackageSettings,
) {
  await db.query(
    `INSERT INTO edge_waf_packages (zone_id, package_id, sensitivity, action_mode) VALUES ($1, $2, $3, $4)
     ON CONFLICT (zone_id, package_id) DO UPDATE SET sensitivity = EXCLUDED.sensitivity, action_mode = EXCLUDED.action_mode`,
    [zoneId, packageId, s.sensitivity, s.actionMode],
  );
}

/** Group or rule modes set in a zone (only what differs from the catalogue is stored). */
export async function readModes(
  db: Queryable,
  table: 'group' | 'rule',
  zoneId: string,
  packageId: string,
): Promise<Map<string, string>> {
  const sql =
    table === 'group'
      ? 'SELECT group_id AS id, mode FROM edge_waf_group_modes WHERE zone_id = $1 AND package_id = $2'
      : 'SELECT rule_id AS id, mode FROM edge_waf_rule_modes WHERE zone_id = $1 AND package_id = $2';
  const { rows } = await db.query<{ id: string; mode: string }>(sql, [zoneId, packageId]);
  return new Map(rows.map((r) => [r.id, r.mode]));
}

export async function writeMode(
  db: Queryable,
  table: 'group' | 'rule',
  zoneId: string,
  packageId: string,
  id: string,
  mode: string | undefined,
) {
  const [name, key] =
    table === 'group' ? ['edge_waf_group_modes', 'group_id'] : ['edge_waf_rule_modes', 'rule_id'];
  if (mode === undefined) {
    await db.query(`DELETE FROM ${name} WHERE zone_id = $1 AND package_id = $2 AND ${key} = $3`, [
      zoneId,
      packageId,
      id,
    ]);
    return;
  }
  await db.query(
    `INSERT INTO ${name} (zone_id, package_id, ${key}, mode) VALUES ($1, $2, $3, $4)
     ON CONFLICT (zone_id, package_id, ${key}) DO UPDATE SET mode = EXCLUDED.mode`,
    [zoneId, packageId, id, mode],
  );
}

export interface WafOverride {
  id: string;
  zoneId: string;
  description: string | null;
  urls: string[];
  priority: number;
  paused: boolean;
  groups: Record<string, string>;
  rules: Record<string, string>;
  rewriteAction: Record<string, string>;
  createdOn: Date;
  modifiedOn: Date;
}

interface OverrideRow {
  id: string;
  zone_id: string;
  description: string | null;
  urls: string[];
  priority: number;
  paused: boolean;
  groups: Record<string, string>;
  rules: Record<string, string>;
  rewrite_action: Record<string, string>;
  created_on: Date;
  modified_on: Date;
}

const toOverride = (r: OverrideRow): WafOverride => ({
  id: r.id,
  zoneId: r.zone_id,
  description: r.description,
  urls: r.urls,
  priority: r.priority,
  paused: r.paused,
  groups: r.groups,
  rules: r.rules,
  rewriteAction: r.rewrite_action,
  createdOn: r.created_on,
  modifiedOn: r.modified_on,
});

export async function listOverrides(db: Queryable, zoneId: string): Promise<WafOverride[]> {
  const { rows } = await db.query<OverrideRow>(
    'SELECT * FROM edge_waf_overrides WHERE zone_id = $1 ORDER BY priority, created_on, id',
    [zoneId],
  );
  return rows.map(toOverride);
}

export async function findOverride(
  db: Queryable,
  zoneId: string,
  id: string,
): Promise<WafOverride | undefined> {
  const { rows } = await db.query<OverrideRow>(
    'SELECT * FROM edge_waf_overrides WHERE zone_id = $1 AND id = $2',
    [zoneId, id],
  );
  return rows[0] && toOverride(rows[0]);
}

export async function saveOverride(db: Queryable, o: WafOverride): Promise<void> {
  await db.query(
    `INSERT INTO edge_waf_overrides (id, zone_id, description, urls, priority, paused, groups, rules, rewrite_action, created_on, modified_on)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7::jsonb, $8::jsonb, $9::jsonb, $10, $11)
     ON CONFLICT (id) DO UPDATE SET description = EXCLUDED.description, urls = EXCLUDED.urls, priority = EXCLUDED.priority,
       paused = EXCLUDED.paused, groups = EXCLUDED.groups, rules = EXCLUDED.rules, rewrite_action = EXCLUDED.rewrite_action,
       modified_on = EXCLUDED.modified_on`,
    [
      o.id,
      o.zoneId,
      o.description,
      JSON.stringify(o.urls),
      o.priority,
      o.paused,
      JSON.stringify(o.groups),
      JSON.stringify(o.rules),
      JSON.stringify(o.rewriteAction),
      o.createdOn,
      o.modifiedOn,
    ],
  );
}

export async function deleteOverrideRow(db: Queryable, zoneId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM edge_waf_overrides WHERE zone_id = $1 AND id = $2', [
    zoneId,
    id,
  ]);
  return rowCount > 0;
}
