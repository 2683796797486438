import type { Queryable } from '@cairn/kit';
import type { RulesetVersion, StoredRule, ZoneRuleset } from './model.ts';

interface HeaderRow {
  id: string;
  zone_id: string;
  name: string;
  description: string;
  kind: 'zone' | 'custom';
  phase: string;
  version: number;
  last_updated: Date;
}

interface VersionRow {
  ruleset_id: string;
  version: number;
  name: string;
  description: string;
  last_updated: Date;
  rules: StoredRule[] | string;
}

const toHeader = (r: HeaderRow): ZoneRuleset => ({
  id: r.id,
  zoneId: r.zone_id,
  name: r.name,
  description: r.description,
  kind: r.kind,
  phase: r.phase,
  version: r.version,
  lastUpdated: r.last_updated,
});

const toVersion = (r: VersionRow): RulesetVersion => ({
  rulesetId: r.ruleset_id,
  version: r.version,
  name: r.name,
  description: r.description,
  lastUpdated: r.last_updated,
  rules: typeof r.rules === 'string' ? (JSON.parse(r.rules) as StoredRule[]) : r.rules,
});

export async function listZoneRulesets(db: Queryable, zoneId: string): Promise<ZoneRuleset[]> {
  const { rows } = await db.query<HeaderRow>(
    'SELECT * FROM edge_rulesets WHERE zone_id = $1 ORDER BY phase, id',
    [zoneId],
  );
  return rows.map(toHeader);
}

export async function findRuleset(
  db: Queryable,
  zoneId: string,
  id: string,
  lock = false,
): Promise<ZoneRuleset | undefined> {
  const { rows } = await db.query<HeaderRow>(
    `SELECT * FROM edge_rulesets WHERE zone_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
    [zoneId, id],
  );
  return rows[0] && toHeader(rows[0]);
}

export async function findEntrypoint(
  db: Queryable,
  zoneId: string,
  phase: string,
  lock = false,
): Promise<ZoneRuleset | undefined> {
  const { rows } = await db.query<HeaderRow>(
    `SELECT * FROM edge_rulesets WHERE zone_id = $1 AND phase = $2 AND kind = 'zone'${lock ? ' FOR UPDATE' : ''}`,
    [zoneId, phase],
  );
  return rows[0] && toHeader(rows[0]);
}

/** Inserts a ruleset header at version 0; false when the zone already has this phase's entry point. */
export async function insertRuleset(db: Queryable, rs: ZoneRuleset): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO edge_rulesets (id, zone_id, name, description, kind, phase, version, last_updated)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
    [rs.id, rs.zoneId, rs.name, rs.description, rs.kind, rs.phase, rs.version, rs.lastUpdated],
  );
  return rowCount > 0;
}

/** Appends a version and makes it the ruleset's latest. */
export async function appendVersion(db: Queryable, v: RulesetVersion): Promise<void> {
  await db.query(
    `INSERT INTO edge_ruleset_versions (ruleset_id, version, name, description, last_updated, rules)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb)`,
    [v.rulesetId, v.version, v.name, v.description, v.lastUpdated, JSON.stringify(v.rules)],
  );
  await db.query(
    'UPDATE edge_rulesets SET version = $2, name = $3, description = $4, last_updated = $5 WHERE id = $1',
    [v.rulesetId, v.version, v.name, v.description, v.lastUpdated],
  );
}

export async function findVersion(
  db: Queryable,
  rulesetId: string,
  version: number,
): Promise<RulesetVersion | undefined> {
  const { rows } = await db.query<VersionRow>(
    'SELECT * FROM edge_ruleset_versions WHERE ruleset_id = $1 AND version = $2 AND NOT deleted',
    [rulesetId, version],
  );
  return rows[0] && toVersion(rows[0]);
}

export async function listVersions(db: Queryable, rulesetId: string): Promise<RulesetVersion[]> {
  const { rows } = await db.query<VersionRow>(
    `SELECT ruleset_id, version, name, description, last_updated, '[]'::jsonb AS rules
       FROM edge_ruleset_versions WHERE ruleset_id = $1 AND NOT deleted ORDER BY version`,
    [rulesetId],
  );
  return rows.map(toVersion);
}

export async function markVersionDeleted(
  db: Queryable,
  rulesetId: string,
  version: number,
): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE edge_ruleset_versions SET deleted = true, rules = $3::jsonb WHERE ruleset_id = $1 AND version = $2 AND NOT deleted',
    [rulesetId, version, '[]'],
  );
  return rowCount > 0;
}

export async function deleteRulesetRow(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM edge_rulesets WHERE id = $1', [id]);
  return rowCount > 0;
}
