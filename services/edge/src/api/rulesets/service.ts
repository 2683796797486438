import type { Queryable } from '@cairn/kit';
import type { EdgeDeps } from '../../deps.ts';
import type { ManagedRuleset } from '../../managed/types.ts';
import {
  EDGE_CODES,
  edgeError,
  invalidBody,
  invalidParameter,
  invalidValue,
  notEntitled,
  readOnly,
  rulesetNotFound,
} from '../errors.ts';
import { newHexId } from '../ids.ts';
import { type Actor, recordRulesetsWrite, SYSTEM_ACTOR } from '../migration/store.ts';
import { pointerTo } from '../schema.ts';
import { CUSTOM_RULE_QUOTA, planLabel } from '../zones/plans.ts';
import type { Zone } from '../zones/store.ts';
import {
  managedRulesetJson,
  type RulesetVersion,
  rulesetJson,
  type StoredRule,
  timestamp,
  type ZoneRuleset,
} from './model.ts';
import { isPhase, isSupportedPhase, SUPPORTED_PHASES, type SupportedPhase } from './phases.ts';
import { resolvePosition } from './position.ts';
import type { RuleInput, RulePatch, RuleWithPosition } from './rule-input.ts';
import {
  appendVersion,
  deleteRulesetRow,
  findEntrypoint,
  findRuleset,
  findVersion,
  insertRuleset,
  listVersions,
  listZoneRulesets,
  markVersionDeleted,
} from './store.ts';
import { checkRule, inputRuleId, type RuleContext } from './validate.ts';
import { contentOf, type IncomingRule, mergeRules } from './versioning.ts';

export type RulesetDeps = Pick<EdgeDeps, 'db' | 'clock' | 'catalogue'>;

export const MAX_RULES = 1000;

/** The answer of every ruleset read and write: the ruleset with its rules. */
export type RulesetJson = ReturnType<typeof rulesetJson> | ReturnType<typeof managedRulesetJson>;

class DryRun extends Error {}

/** How a write was asked for: `dry_run`, and who asked (recorded in validation mode). */
export interface WriteOptions {
  dryRun?: boolean;
  actor?: Actor;
}

/**
 * Runs a write in one transaction; with dry_run, validates everything and rolls back (result null). A
 * write of the managed entry point in validation mode is recorded in the upgrade's history.
 */
async function write<T extends { id: string; phase: string; version: string }>(
  deps: RulesetDeps,
  zone: Zone,
  options: WriteOptions,
  fn: (tx: Queryable) => Promise<T>,
): Promise<T | null> {
  try {
    return await deps.db.transaction(async (tx) => {
      const value = await fn(tx);
      await recordRulesetsWrite(tx, zone.id, value, options.actor ?? SYSTEM_ACTOR, deps.clock.now());
      if (options.dryRun) throw new DryRun();
      return value;
    });
  } catch (error) {
    if (error instanceof DryRun) return null;
    throw error;
  }
}

/** A phase a zone ruleset may have; `pointer` undefined when the phase comes from the path. */
export function checkPhaseName(phase: string, pointer?: string): SupportedPhase {
  if (!isPhase(phase)) {
    if (pointer === undefined)
      throw invalidParameter('ruleset_phase', `'${phase}' is not a phase of the Rulesets API`);
    throw invalidValue(pointer, phase, 'it is not a phase of the Rulesets API');
  }
  if (!isSupportedPhase(phase)) {
    throw notEntitled(
      `not entitled to use the phase ${phase}: Cairn runs ${SUPPORTED_PHASES.join(' and ')}`,
      pointer,
    );
  }
  return phase;
}

function buildRules(
  deps: RulesetDeps,
  zone: Zone,
  phase: SupportedPhase,
  inputs: readonly RuleInput[],
  existing: readonly StoredRule[],
  base: string,
  now: Date,
): StoredRule[] {
  if (inputs.length > MAX_RULES)
    throw invalidValue(base, `${inputs.length} rules`, `a ruleset has at most ${MAX_RULES} rules`);
  if (phase === 'http_request_firewall_custom' && inputs.length > CUSTOM_RULE_QUOTA[zone.plan]) {
    throw notEntitled(
      `not entitled to more than ${CUSTOM_RULE_QUOTA[zone.plan]} custom rules on the ${planLabel(zone.plan)} plan (${inputs.length} given)`,
      base,
    );
  }
  const context: RuleContext = { phase, plan: zone.plan, catalogue: deps.catalogue };
  const incoming: IncomingRule[] = inputs.map((input, i) => {
    const pointer = pointerTo(base, i);
    return { id: inputRuleId(input, pointer), content: checkRule(input, context, pointer), pointer };
  });
  return mergeRules(existing, incoming, timestamp(now));
}

async function appendRules(
  tx: Queryable,
  rs: ZoneRuleset,
  previous: RulesetVersion | undefined,
  rules: StoredRule[],
  now: Date,
  change: { name?: string; description?: string } = {},
) {
  const version: RulesetVersion = {
    rulesetId: rs.id,
    version: rs.version + 1,
    name: change.name ?? previous?.name ?? rs.name,
    description: change.description ?? previous?.description ?? rs.description,
    lastUpdated: now,
    rules,
  };
  await appendVersion(tx, version);
  return rulesetJson({ ...rs, version: version.version, lastUpdated: now }, version, true);
}

async function latest(db: Queryable, rs: ZoneRuleset): Promise<RulesetVersion | undefined> {
  return rs.version > 0 ? findVersion(db, rs.id, rs.version) : undefined;
}

function managedOrUndefined(deps: RulesetDeps, id: string): ManagedRuleset | undefined {
  return deps.catalogue.find(id);
}

const readOnlyManaged = (rs: ManagedRuleset) =>
  readOnly(
    `${rs.name} (${rs.id}) is a managed ruleset and cannot be modified; deploy it with an execute rule in the http_request_firewall_managed entry point, with overrides`,
  );

async function lockedRuleset(tx: Queryable, deps: RulesetDeps, zone: Zone, id: string): Promise<ZoneRuleset> {
  const managed = managedOrUndefined(deps, id);
  if (managed) throw readOnlyManaged(managed);
  const rs = await findRuleset(tx, zone.id, id, true);
  if (!rs) throw rulesetNotFound(`could not find ruleset ${id} in zone ${zone.name}`);
  return rs;
}

// ---- reads

export async function listRulesets(deps: RulesetDeps, zone: Zone) {
  const own = await listZoneRulesets(deps.db, zone.id);
  return [
    ...deps.catalogue.rulesets.map((rs) => managedRulesetJson(rs)),
    ...own
      .filter((rs) => rs.version > 0)
      .map((rs) =>
        rulesetJson(
          rs,
          {
            rulesetId: rs.id,
            version: rs.version,
            name: rs.name,
            description: rs.description,
            lastUpdated: rs.lastUpdated,
            rules: [],
          },
          false,
        ),
      ),
  ];
}

export async function getRuleset(deps: RulesetDeps, zone: Zone, id: string): Promise<RulesetJson> {
  const managed = managedOrUndefined(deps, id);
  if (managed) return managedRulesetJson(managed, managed.rules());
  const rs = await findRuleset(deps.db, zone.id, id);
  const version = rs && (await latest(deps.db, rs));
  if (!rs || !version) throw rulesetNotFound(`could not find ruleset ${id} in zone ${zone.name}`);
  return rulesetJson(rs, version, true);
}

export async function getEntrypoint(deps: RulesetDeps, zone: Zone, phase: string): Promise<RulesetJson> {
  if (!isPhase(phase))
    throw invalidParameter('ruleset_phase', `'${phase}' is not a phase of the Rulesets API`);
  const rs = await findEntrypoint(deps.db, zone.id, phase);
  const version = rs && (await latest(deps.db, rs));
  if (!rs || !version) throw rulesetNotFound(`could not find entrypoint ruleset in the ${phase} phase`);
  return rulesetJson(rs, version, true);
}

/** The entry point of a phase with its versions, or 404/10003. */
export async function entrypointRuleset(deps: RulesetDeps, zone: Zone, phase: string): Promise<ZoneRuleset> {
  if (!isPhase(phase))
    throw invalidParameter('ruleset_phase', `'${phase}' is not a phase of the Rulesets API`);
  const rs = await findEntrypoint(deps.db, zone.id, phase);
  if (!rs || rs.version === 0)
    throw rulesetNotFound(`could not find entrypoint ruleset in the ${phase} phase`);
  return rs;
}

export async function listRulesetVersions(deps: RulesetDeps, zone: Zone, id: string) {
  const managed = managedOrUndefined(deps, id);
  if (managed) return [managedRulesetJson(managed)];
  const rs = await findRuleset(deps.db, zone.id, id);
  if (!rs || rs.version === 0) throw rulesetNotFound(`could not find ruleset ${id} in zone ${zone.name}`);
  return (await listVersions(deps.db, rs.id)).map((v) => rulesetJson(rs, v, false));
}

export async function getRulesetVersion(
  deps: RulesetDeps,
  zone: Zone,
  id: string,
  version: number,
): Promise<RulesetJson> {
  const managed = managedOrUndefined(deps, id);
  if (managed) {
    if (String(version) !== managed.version)
      throw rulesetNotFound(`could not find version ${version} of ruleset ${id}`);
    return managedRulesetJson(managed, managed.rules());
  }
  const rs = await findRuleset(deps.db, zone.id, id);
  const v = rs && (await findVersion(deps.db, rs.id, version));
  if (!rs || !v)
    throw rulesetNotFound(`could not find version ${version} of ruleset ${id} in zone ${zone.name}`);
  return rulesetJson(rs, v, true);
}

// ---- writes

export interface CreateRulesetInput {
  name: string;
  kind: string;
  phase: string;
  description?: string;
  rules?: RuleInput[];
}

export async function createRuleset(
  deps: RulesetDeps,
  zone: Zone,
  input: CreateRulesetInput,
  options: WriteOptions = {},
) {
  if (input.kind !== 'zone') {
    const why: Record<string, string> = {
      managed: 'managed rulesets are maintained by Cairn',
      custom: 'custom rulesets are account-level; a zone has one entry point ruleset (kind zone) per phase',
      root: 'root rulesets are account-level entry points; use kind zone in a zone',
    };
    throw invalidValue('/kind', input.kind, why[input.kind] ?? 'it must be zone');
  }
  const phase = checkPhaseName(input.phase, '/phase');
  return write(deps, zone, options, async (tx) => {
    const now = deps.clock.now();
    const rs: ZoneRuleset = {
      id: newHexId(),
      zoneId: zone.id,
      name: input.name,
      description: input.description ?? '',
      kind: 'zone',
      phase,
      version: 0,
      lastUpdated: now,
    };
    if (!(await insertRuleset(tx, rs))) {
      throw edgeError(
        400,
        EDGE_CODES.entrypointExists,
        `'zone' is not a valid value for kind because exceeded maximum number of zone rulesets for phase ${phase}`,
        { pointer: '/kind' },
      );
    }
    const rules = buildRules(deps, zone, phase, input.rules ?? [], [], '/rules', now);
    return appendRules(tx, rs, undefined, rules, now);
  });
}

export interface UpdateRulesetInput {
  rules: RuleInput[];
  description?: string;
  kind?: string;
  phase?: string;
  name?: string;
}

export async function updateRuleset(
  deps: RulesetDeps,
  zone: Zone,
  id: string,
  input: UpdateRulesetInput,
  options: WriteOptions = {},
) {
  return write(deps, zone, options, async (tx) => {
    const rs = await lockedRuleset(tx, deps, zone, id);
    if (input.kind !== undefined && input.kind !== rs.kind)
      throw invalidValue('/kind', input.kind, `the kind of a ruleset cannot be changed (it is ${rs.kind})`);
    if (input.phase !== undefined && input.phase !== rs.phase)
      throw invalidValue(
        '/phase',
        input.phase,
        `the phase of a ruleset cannot be changed (it is ${rs.phase})`,
      );
    const previous = await latest(tx, rs);
    if (input.name !== undefined && input.name !== (previous?.name ?? rs.name)) {
      throw invalidValue('/name', input.name, 'the name of a ruleset cannot be changed');
    }
    const now = deps.clock.now();
    const rules = buildRules(
      deps,
      zone,
      checkPhaseName(rs.phase, '/phase'),
      input.rules,
      previous?.rules ?? [],
      '/rules',
      now,
    );
    return appendRules(
      tx,
      rs,
      previous,
      rules,
      now,
      input.description === undefined ? {} : { description: input.description },
    );
  });
}

export interface EntrypointInput {
  rules: RuleInput[];
  name?: string;
  description?: string;
}

/**
 * Creates or replaces the zone's entry point of `phase` inside the caller's transaction (the WAF upgrade
 * writes it together with the zone's migration state). Validates everything; throws before writing.
 */
export async function writeEntrypoint(
  tx: Queryable,
  deps: RulesetDeps,
  zone: Zone,
  phase: string,
  input: EntrypointInput,
) {
  const supported = checkPhaseName(phase);
  const now = deps.clock.now();
  await insertRuleset(tx, {
    id: newHexId(),
    zoneId: zone.id,
    name: input.name ?? 'default',
    description: input.description ?? '',
    kind: 'zone',
    phase: supported,
    version: 0,
    lastUpdated: now,
  });
  const rs = await findEntrypoint(tx, zone.id, supported, true);
  if (!rs) throw new Error(`entry point of ${supported} in zone ${zone.id} vanished`);
  const previous = await latest(tx, rs);
  const rules = buildRules(deps, zone, supported, input.rules, previous?.rules ?? [], '/rules', now);
  return appendRules(
    tx,
    rs,
    previous,
    rules,
    now,
    input.description === undefined ? {} : { description: input.description },
  );
}

export function putEntrypoint(
  deps: RulesetDeps,
  zone: Zone,
  phase: string,
  input: EntrypointInput,
  options: WriteOptions = {},
) {
  return write(deps, zone, options, (tx) => writeEntrypoint(tx, deps, zone, phase, input));
}

export async function deleteRuleset(
  deps: RulesetDeps,
  zone: Zone,
  id: string,
  options: Pick<WriteOptions, 'actor'> = {},
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const rs = await lockedRuleset(tx, deps, zone, id);
    await deleteRulesetRow(tx, rs.id);
    const deleted = { id: rs.id, phase: rs.phase, version: null };
    await recordRulesetsWrite(tx, zone.id, deleted, options.actor ?? SYSTEM_ACTOR, deps.clock.now());
  });
}

export async function deleteRulesetVersion(
  deps: RulesetDeps,
  zone: Zone,
  id: string,
  version: number,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const rs = await lockedRuleset(tx, deps, zone, id);
    if (version === rs.version) {
      throw invalidBody(
        '',
        `version ${version} is the latest version of ruleset ${id} and cannot be deleted; delete the ruleset instead`,
      );
    }
    if (!(await markVersionDeleted(tx, rs.id, version))) {
      throw rulesetNotFound(`could not find version ${version} of ruleset ${id} in zone ${zone.name}`);
    }
  });
}

function ruleRef(input: { ref?: string }, rules: readonly StoredRule[], self?: string) {
  if (
    input.ref !== undefined &&
    input.ref !== '' &&
    rules.some((r) => r.ref === input.ref && r.id !== self)
  ) {
    throw invalidValue('/ref', input.ref, 'another rule of this ruleset has this ref');
  }
}

const unchanged = (rules: readonly StoredRule[]): IncomingRule[] =>
  rules.map((r) => ({ id: r.id, content: contentOf(r), pointer: '' }));

export async function addRule(
  deps: RulesetDeps,
  zone: Zone,
  id: string,
  input: RuleWithPosition,
  options: WriteOptions = {},
) {
  return write(deps, zone, options, async (tx) => {
    const rs = await lockedRuleset(tx, deps, zone, id);
    const previous = await latest(tx, rs);
    const rules = previous?.rules ?? [];
    if (input.id !== undefined && input.id !== '') {
      throw invalidValue(
        '/id',
        input.id,
        'a new rule gets its id from Cairn; leave id out (PATCH …/rules/{rule_id} changes a rule)',
      );
    }
    if (rules.length >= MAX_RULES)
      throw invalidBody('', `ruleset ${id} already has ${MAX_RULES} rules, the maximum`);
    const phase = checkPhaseName(rs.phase, '/phase');
    if (phase === 'http_request_firewall_custom' && rules.length + 1 > CUSTOM_RULE_QUOTA[zone.plan]) {
      throw notEntitled(
        `not entitled to more than ${CUSTOM_RULE_QUOTA[zone.plan]} custom rules on the ${planLabel(zone.plan)} plan`,
      );
    }
    ruleRef(input, rules);
    const content = checkRule(input, { phase, plan: zone.plan, catalogue: deps.catalogue }, '');
    const at = resolvePosition(input.position, rules, '/position');
    const incoming = unchanged(rules);
    incoming.splice(at, 0, { id: undefined, content, pointer: '' });
    const now = deps.clock.now();
    return appendRules(tx, rs, previous, mergeRules(rules, incoming, timestamp(now)), now);
  });
}

export async function patchRule(
  deps: RulesetDeps,
  zone: Zone,
  id: string,
  ruleId: string,
  input: RulePatch,
  options: WriteOptions = {},
) {
  return write(deps, zone, options, async (tx) => {
    const rs = await lockedRuleset(tx, deps, zone, id);
    const previous = await latest(tx, rs);
    const rules = previous?.rules ?? [];
    const current = rules.find((r) => r.id === ruleId);
    if (!current) throw rulesetNotFound(`could not find rule ${ruleId} in ruleset ${id}`);
    const { position, ...fields } = input;
    const given = Object.keys(fields).filter(
      (k) => !['id', 'version', 'last_updated', 'categories'].includes(k),
    );
    if (given.length === 0 && position === undefined) {
      throw invalidBody('', 'nothing to change: give the rule fields to change and/or a position');
    }
    if (input.id !== undefined && input.id !== '' && input.id !== ruleId) {
      throw invalidValue(
        '/id',
        input.id,
        `it must be the id of the rule in the path (${ruleId}) or left out`,
      );
    }
    ruleRef(input, rules, ruleId);
    const action = input.action ?? current.action;
    const actionChanged = action !== current.action;
    const merged: RuleInput = {
      action,
      expression: input.expression ?? current.expression,
      description: input.description ?? current.description,
      enabled: input.enabled ?? current.enabled,
      ref: input.ref ?? current.ref,
    };
    const parameters = input.action_parameters ?? (actionChanged ? undefined : current.action_parameters);
    if (parameters) merged.action_parameters = parameters;
    const logging = input.logging ?? (actionChanged ? undefined : current.logging);
    if (logging) merged.logging = logging;
    const phase = checkPhaseName(rs.phase, '/phase');
    const content = checkRule(merged, { phase, plan: zone.plan, catalogue: deps.catalogue }, '');
    const others = rules.filter((r) => r.id !== ruleId);
    const at =
      position === undefined
        ? rules.indexOf(current)
        : resolvePosition(position, others, '/position', ruleId);
    const incoming = unchanged(others);
    incoming.splice(at, 0, { id: ruleId, content, pointer: '' });
    const now = deps.clock.now();
    return appendRules(tx, rs, previous, mergeRules(rules, incoming, timestamp(now)), now);
  });
}

export async function deleteRule(
  deps: RulesetDeps,
  zone: Zone,
  id: string,
  ruleId: string,
  options: WriteOptions = {},
) {
  return write(deps, zone, options, async (tx) => {
    const rs = await lockedRuleset(tx, deps, zone, id);
    const previous = await latest(tx, rs);
    const rules = previous?.rules ?? [];
    if (!rules.some((r) => r.id === ruleId))
      throw rulesetNotFound(`could not find rule ${ruleId} in ruleset ${id}`);
    const now = deps.clock.now();
    return appendRules(
      tx,
      rs,
      previous,
      rules.filter((r) => r.id !== ruleId),
      now,
    );
  });
}
