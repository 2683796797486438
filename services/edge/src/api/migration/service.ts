import type { Queryable } from '@cairn/kit';
import type { EdgeDeps } from '../../deps.ts';
import { readLegacyWafConfig } from '../../legacy-config.ts';
import { type Message, Reply } from '../envelope.ts';
import { rulesetNotFound } from '../errors.ts';
import { type EntrypointInput, writeEntrypoint } from '../rulesets/service.ts';
import { OWASP_PACKAGE_ID } from '../waf-legacy/catalogue.ts';
import { atLeast } from '../zones/plans.ts';
import { lockZone, type MigrationState, updateZone, type Zone } from '../zones/store.ts';
import { eligibilityProblems, limitError, limitWarning } from './eligibility.ts';
import {
  alreadyUpgraded,
  MIGRATION_CODES,
  message,
  phaseOneRefused,
  uriOverridesBlock,
  validationNeedsEnterprise,
} from './errors.ts';
import { type MappingInput, mapConfiguration } from './mapping/index.ts';
import {
  type Actor,
  describeTransition,
  type EventContext,
  insertEvent,
  listEvents,
  owaspSettingsStored,
} from './store.ts';

export type MigrationDeps = Pick<EdgeDeps, 'db' | 'clock' | 'catalogue' | 'upgradeHooks'>;

export const MANAGED_PHASE = 'http_request_firewall_managed';

async function mappingInput(db: Queryable, deps: MigrationDeps, zone: Zone): Promise<MappingInput> {
  return {
    zone,
    legacy: await readLegacyWafConfig(db, deps.catalogue, zone.id),
    owaspDefaults: !(await owaspSettingsStored(db, zone.id, OWASP_PACKAGE_ID)),
    catalogue: deps.catalogue,
  };
}

/** GET …/waf_migration/check: `{compatible, migration_state}`; the reasons, if any, in `messages`. */
export async function checkUpgrade(deps: MigrationDeps, zone: Zone, phaseTwo: boolean): Promise<Reply> {
  const state = zone.wafMigrationState;
  if (state === 'complete') {
    return new Reply({ compatible: false, migration_state: state }, undefined, [
      message(MIGRATION_CODES.ineligible, alreadyUpgraded(zone).message),
    ]);
  }
  const input = await mappingInput(deps.db, deps, zone);
  const problems = eligibilityProblems(zone, input.legacy, phaseTwo);
  const messages: Message[] = problems.map((p) =>
    message(MIGRATION_CODES.ineligible, `zone ${zone.name} is not eligible: ${p}`),
  );
  const warning = limitWarning(zone, input.legacy);
  if (warning) messages.push(warning);
  if (!atLeast(zone.plan, 'pro')) messages.push(...mapConfiguration(input).messages);
  return new Reply({ compatible: problems.length === 0, migration_state: state }, undefined, messages);
}

/** GET …/waf_migration/config: the equivalent new configuration; what is not migrated in `messages`. */
export async function upgradeConfiguration(deps: MigrationDeps, zone: Zone): Promise<Reply> {
  if (zone.wafMigrationState === 'complete') throw alreadyUpgraded(zone);
  const input = await mappingInput(deps.db, deps, zone);
  const { configuration, messages } = mapConfiguration(input);
  const warning = limitWarning(zone, input.legacy);
  return new Reply(configuration, undefined, warning ? [...messages, warning] : messages);
}

export interface UpgradeRequest {
  /** `pending`/`1` finishes the upgrade; `validation`/`2` runs both (Enterprise). */
  mode: 'pending' | 'validation';
  phaseTwo: boolean;
  input: EntrypointInput;
  actor: Actor;
  dryRun?: boolean;
}

class DryRun extends Error {}

/**
 * PUT …/entrypoint?waf_migration=…: in one transaction, with the zone row locked (a concurrent upgrade
 * waits, then finds the zone upgraded and is refused): check the state, the plan, eligibility and the
 * seed's limits; write the entry point; move the state (the database records the transition with who
 * and when). Anything refused or failing changes nothing.
 */
export async function upgradeZone(
  deps: MigrationDeps,
  zoneId: string,
  request: UpgradeRequest,
): Promise<Reply> {
  const target: MigrationState = request.mode === 'validation' ? 'validation' : 'complete';
  let from: MigrationState = 'start';
  let zoneName = zoneId;
  try {
    const ruleset = await deps.db.transaction(async (tx) => {
      const zone = await lockZone(tx, zoneId);
      if (!zone) throw rulesetNotFound(`could not find zone ${zoneId}`);
      from = zone.wafMigrationState;
      zoneName = zone.name;
      if (from === 'complete') throw alreadyUpgraded(zone);
      if (target === 'validation' && zone.plan !== 'enterprise') throw validationNeedsEnterprise(zone);
      const input = await mappingInput(tx, deps, zone);
      if (input.legacy.overrides.length > 0)
        throw uriOverridesBlock(
          zone,
          input.legacy.overrides.map((o) => o.id),
        );
      const problems = eligibilityProblems(zone, input.legacy, request.phaseTwo);
      if (problems.length > 0) throw phaseOneRefused(zone, problems);
      const limit = limitError(zone, input.legacy);
      if (limit) throw limit;
      const written = await writeEntrypoint(tx, deps, zone, MANAGED_PHASE, request.input);
      const context: EventContext = {
        cause: request.mode,
        phaseTwo: request.phaseTwo,
        actor: request.actor,
        rulesetId: written.id,
        rulesetVersion: Number(written.version),
      };
      const now = deps.clock.now();
      if (from === target) await insertEvent(tx, zone.id, target, context, now);
      else {
        await describeTransition(tx, context);
        await updateZone(tx, zone.id, { wafMigrationState: target }, now);
      }
      await deps.upgradeHooks?.beforeCommit?.(zone.id);
      if (request.dryRun) throw new DryRun();
      return written;
    });
    return new Reply(ruleset, undefined, [
      message(MIGRATION_CODES.transition, transitionText(zoneName, from, target)),
    ]);
  } catch (error) {
    if (error instanceof DryRun) return new Reply(null);
    throw error;
  }
}

function transitionText(zone: string, from: MigrationState, to: MigrationState): string {
  if (to === 'validation') {
    return from === 'validation'
      ? `zone ${zone} stays in validation mode with the new configuration: both WAF versions run, the new one first; finish with waf_migration=pending`
      : `zone ${zone} is in validation mode (migration_state ${from} → validation): both WAF versions run, the new one first; review the security events, adjust the configuration, then finish with waf_migration=pending`;
  }
  return `zone ${zone} is upgraded (migration_state ${from} → complete): the new WAF Managed Rules are enabled and the previous version is disabled; the upgrade is irreversible`;
}

/** Is the previous WAF running? Until the upgrade completes, on plans that have it (Pro and above). */
export const previousWafEnabled = (zone: Pick<Zone, 'plan' | 'wafMigrationState'>) =>
  (zone.wafMigrationState === 'start' || zone.wafMigrationState === 'validation') &&
  atLeast(zone.plan, 'pro');

/** Is the new WAF running? From validation mode on, and on zones that never had the previous WAF. */
export const newWafEnabled = (zone: Pick<Zone, 'wafMigrationState'>) => zone.wafMigrationState !== 'start';

/** GET …/waf_migration/status. */
export function upgradeStatus(zone: Zone) {
  return {
    old_waf_status: previousWafEnabled(zone) ? 'enabled' : 'disabled',
    new_waf_status: newWafEnabled(zone) ? 'enabled' : 'disabled',
    migration_state: zone.wafMigrationState,
    source:
      zone.wafMigrationState === 'validation' || zone.wafMigrationState === 'complete' ? 'zone' : 'defaults',
    created: zone.createdOn.toISOString(),
    modified_on: zone.wafMigrationChangedAt.toISOString(),
  };
}

/** GET …/waf_migration/history: every recorded transition, oldest first. */
export async function upgradeHistory(deps: Pick<EdgeDeps, 'db'>, zone: Zone) {
  return (await listEvents(deps.db, zone.id)).map((e) => ({
    seq: e.seq,
    from: e.from,
    to: e.to,
    cause: e.cause,
    phase_two: e.phaseTwo,
    actor: e.actor,
    ruleset_id: e.rulesetId,
    ruleset_version: e.rulesetVersion === null ? null : String(e.rulesetVersion),
    at: e.at.toISOString(),
  }));
}
