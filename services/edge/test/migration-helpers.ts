import { createZone, type PlanName, type Zone } from '../src/index.ts';
import { type Answer, call, type EdgeFixture } from './helpers.ts';

let counter = 0;

/** A new zone of a plan (the upgrade is irreversible: each scenario gets its own zone). */
export async function freshZone(f: EdgeFixture, plan: PlanName, prefix = 'up'): Promise<Zone> {
  counter += 1;
  return createZone(f.edge.deps, {
    accountId: f.accountId,
    name: `${prefix}-${plan}-${counter}-${process.pid}.example.com`,
    plan,
  });
}

export const migrationPaths = (zoneId: string) => ({
  check: `/zones/${zoneId}/waf_migration/check`,
  config: `/zones/${zoneId}/waf_migration/config`,
  status: `/zones/${zoneId}/waf_migration/status`,
  history: `/zones/${zoneId}/waf_migration/history`,
  entrypoint: `/zones/${zoneId}/rulesets/phases/http_request_firewall_managed/entrypoint`,
});

/** GET config, then PUT it back with waf_migration (the API upgrade procedure). */
export async function upgradeWithConfig(
  f: Pick<EdgeFixture, 'api' | 'token'>,
  zoneId: string,
  mode: string,
  options: { phaseTwo?: boolean; body?: unknown; token?: string } = {},
): Promise<Answer> {
  const p = migrationPaths(zoneId);
  const q = options.phaseTwo === false ? '' : '&phase_two=1';
  const body = options.body ?? (await call(f, 'GET', `${p.config}?phase_two=1`)).body.result;
  return call(f, 'PUT', `${p.entrypoint}?waf_migration=${mode}${q}`, {
    body,
    ...(options.token ? { token: options.token } : {}),
  });
}

/** Everything the upgrade may write for a zone, to prove a refused or killed upgrade changed nothing. */
export async function storeSnapshot(f: Pick<EdgeFixture, 'deps'>, zoneId: string) {
  const db = f.deps.db;
  const zone = await db.query(
    'SELECT plan, waf_migration_state, waf_migration_changed_at, modified_on FROM edge_zones WHERE id = $1',
    [zoneId],
  );
  const rulesets = await db.query(
    `SELECT r.id, r.phase, r.version, v.version AS v, v.rules FROM edge_rulesets r
       LEFT JOIN edge_ruleset_versions v ON v.ruleset_id = r.id WHERE r.zone_id = $1 ORDER BY r.phase, v.version`,
    [zoneId],
  );
  const events = await db.query('SELECT * FROM edge_waf_migration_events WHERE zone_id = $1 ORDER BY seq', [
    zoneId,
  ]);
  const legacy = await db.query(
    `SELECT 'p' AS t, package_id AS id, sensitivity || '/' || action_mode AS v FROM edge_waf_packages WHERE zone_id = $1
     UNION ALL SELECT 'g', group_id, mode FROM edge_waf_group_modes WHERE zone_id = $1
     UNION ALL SELECT 'r', rule_id, mode FROM edge_waf_rule_modes WHERE zone_id = $1
     UNION ALL SELECT 'o', id, urls::text FROM edge_waf_overrides WHERE zone_id = $1
     UNION ALL SELECT 's', setting_id, value::text FROM edge_zone_settings WHERE zone_id = $1
     ORDER BY 1, 2`,
    [zoneId],
  );
  return { zone: zone.rows, rulesets: rulesets.rows, events: events.rows, legacy: legacy.rows };
}
