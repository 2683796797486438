import type { Queryable } from '@cairn/kit';
import type { MigrationState } from '../zones/store.ts';

/** Who made a change: an API token, a dashboard user, or Cairn itself (a plan change). */
export interface Actor {
  type: 'api_token' | 'user' | 'system';
  id: string | null;
  name: string;
}

/**
 * Why the state moved: the entry-point PUT's `waf_migration`, a plan change, or (state unchanged) a
 * write of the managed entry point through the Rulesets API in validation mode.
 */
export type Cause = 'pending' | 'validation' | 'plan' | 'system' | 'rulesets';

export const SYSTEM_ACTOR: Actor = { type: 'system', id: null, name: 'Cairn' };

export interface MigrationEvent {
  zoneId: string;
  seq: number;
  from: MigrationState;
  to: MigrationState;
  cause: Cause;
  phaseTwo: boolean;
  actor: Actor;
  rulesetId: string | null;
  rulesetVersion: number | null;
  at: Date;
}

interface Row {
  zone_id: string;
  seq: number;
  from_state: MigrationState;
  to_state: MigrationState;
  cause: Cause;
  phase_two: boolean;
  actor_type: Actor['type'];
  actor_id: string | null;
  actor_name: string;
  ruleset_id: string | null;
  ruleset_version: number | null;
  at: Date;
}

const toEvent = (r: Row): MigrationEvent => ({
  zoneId: r.zone_id,
  seq: r.seq,
  from: r.from_state,
  to: r.to_state,
  cause: r.cause,
  phaseTwo: r.phase_two,
  actor: { type: r.actor_type, id: r.actor_id, name: r.actor_name },
  rulesetId: r.ruleset_id,
  rulesetVersion: r.ruleset_version,
  at: r.at,
});

export interface EventContext {
  cause: Cause;
  phaseTwo: boolean;
  actor: Actor;
  rulesetId: string | null;
  rulesetVersion: number | null;
}

/**
 * Tells the database trigger that records state changes (migration 0004) who is changing the state and
 * why, for the rest of this transaction only.
 */
export async function describeTransition(tx: Queryable, context: EventContext): Promise<void> {
  await tx.query(`SELECT set_config('cairn.waf_migration', $1, true)`, [
    JSON.stringify({
      cause: context.cause,
      phase_two: context.phaseTwo,
      actor_type: context.actor.type,
      actor_id: context.actor.id,
      actor_name: context.actor.name,
      ruleset_id: context.rulesetId,
      ruleset_version: context.rulesetVersion,
    }),
  ]);
}

/** A configuration written without a state change (validation mode, adjusted): recorded too. */
export async function insertEvent(
  tx: Queryable,
  zoneId: string,
  state: MigrationState,
  context: EventContext,
  at: Date,
): Promise<void> {
  await tx.query(
    `INSERT INTO edge_waf_migration_events
       (zone_id, seq, from_state, to_state, cause, phase_two, actor_type, actor_id, actor_name, ruleset_id, ruleset_version, at)
     VALUES ($1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM edge_waf_migration_events WHERE zone_id = $1),
       $2, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      zoneId,
      state,
      context.cause,
      context.phaseTwo,
      context.actor.type,
      context.actor.id,
      context.actor.name,
      context.rulesetId,
      context.rulesetVersion,
      at,
    ],
  );
}

/**
 * A write of the managed entry point through the Rulesets API while the zone is in validation mode is
 * part of the upgrade's history (the seed: review, adjust, then finish). Called inside the write's
 * transaction after the ruleset row is locked; the state is read without locking the zone (an upgrade
 * locks the zone, then the ruleset), and an upgrade that held the ruleset has committed by then.
 */
export async function recordRulesetsWrite(
  tx: Queryable,
  zoneId: string,
  ruleset: { id: string; phase: string; version: string | null },
  actor: Actor,
  at: Date,
): Promise<void> {
  if (ruleset.phase !== 'http_request_firewall_managed') return;
  const { rows } = await tx.query<{ state: MigrationState }>(
    'SELECT waf_migration_state AS state FROM edge_zones WHERE id = $1',
    [zoneId],
  );
  if (rows[0]?.state !== 'validation') return;
  const context: EventContext = {
    cause: 'rulesets',
    phaseTwo: false,
    actor,
    rulesetId: ruleset.id,
    rulesetVersion: ruleset.version === null ? null : Number(ruleset.version),
  };
  await insertEvent(tx, zoneId, 'validation', context, at);
}

export async function listEvents(db: Queryable, zoneId: string): Promise<MigrationEvent[]> {
  const { rows } = await db.query<Row>(
    'SELECT * FROM edge_waf_migration_events WHERE zone_id = $1 ORDER BY seq',
    [zoneId],
  );
  return rows.map(toEvent);
}

/** Whether the zone ever set the OWASP package's sensitivity or action (the seed's "Default" otherwise). */
export async function owaspSettingsStored(
  db: Queryable,
  zoneId: string,
  packageId: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    'SELECT 1 FROM edge_waf_packages WHERE zone_id = $1 AND package_id = $2',
    [zoneId, packageId],
  );
  return rowCount > 0;
}
