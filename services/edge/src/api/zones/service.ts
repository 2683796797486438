import type { Queryable } from '@cairn/kit';
import type { EdgeDeps } from '../../deps.ts';
import { EDGE_CODES, edgeError, invalidValue } from '../errors.ts';
import { newHexId } from '../ids.ts';
import { type PlanName, planJson } from './plans.ts';
import { deleteZoneRow, findZone, insertZone, type MigrationState, updateZone, type Zone } from './store.ts';

export const ZONE_NAME =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** Free zones never had the previous WAF (state "default"); paid zones start on it ("start"). */
export const initialMigrationState = (plan: PlanName): MigrationState =>
  plan === 'free' ? 'default' : 'start';

export async function createZone(
  deps: Pick<EdgeDeps, 'db' | 'clock'>,
  input: { accountId: string; name: string; plan: PlanName },
  pointer = '/name',
): Promise<Zone> {
  const name = input.name.toLowerCase();
  if (!ZONE_NAME.test(name))
    throw invalidValue(pointer, input.name, 'it must be a domain name such as example.com');
  const now = deps.clock.now();
  const id = newHexId();
  const inserted = await insertZone(deps.db, {
    id,
    accountId: input.accountId,
    name,
    plan: input.plan,
    paused: false,
    createdOn: now,
    modifiedOn: now,
    wafMigrationState: initialMigrationState(input.plan),
    wafMigrationChangedAt: now,
  });
  if (!inserted) throw edgeError(400, EDGE_CODES.zoneExists, `${name} already exists`, { pointer });
  const zone = await findZone(deps.db, id);
  if (!zone) throw new Error(`zone ${id} vanished after insert`);
  return zone;
}

export async function changeZone(
  deps: Pick<EdgeDeps, 'db' | 'clock'>,
  zone: Zone,
  change: { plan?: PlanName; paused?: boolean },
  db: Queryable = deps.db,
): Promise<Zone> {
  // A Free zone moved to a paid plan gets the previous WAF (state start); nothing ever moves back.
  const wafMigrationState =
    change.plan && change.plan !== 'free' && zone.wafMigrationState === 'default' ? 'start' : undefined;
  await updateZone(
    db,
    zone.id,
    { ...change, ...(wafMigrationState ? { wafMigrationState } : {}) },
    deps.clock.now(),
  );
  const updated = await findZone(db, zone.id);
  if (!updated) throw new Error(`zone ${zone.id} vanished`);
  return updated;
}

export async function deleteZone(deps: Pick<EdgeDeps, 'db'>, zone: Zone): Promise<void> {
  await deleteZoneRow(deps.db, zone.id);
}

export function zoneJson(zone: Zone) {
  return {
    id: zone.id,
    name: zone.name,
    status: 'active',
    paused: zone.paused,
    type: 'full',
    development_mode: 0,
    name_servers: ['ns1.cairn.invalid', 'ns2.cairn.invalid'],
    original_name_servers: null,
    original_registrar: null,
    original_dnshost: null,
    vanity_name_servers: [],
    created_on: zone.createdOn.toISOString(),
    modified_on: zone.modifiedOn.toISOString(),
    activated_on: zone.createdOn.toISOString(),
    meta: { step: 4, custom_certificate_quota: 0, page_rule_quota: 0, phishing_detected: false },
    owner: { id: null, type: 'organization', name: zone.accountName },
    account: { id: zone.accountId, name: zone.accountName },
    permissions: [],
    plan: planJson(zone.plan),
  };
}

export const zoneSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', pattern: '^[0-9a-f]{32}$' },
    name: { type: 'string' },
    status: { type: 'string' },
    paused: { type: 'boolean' },
    type: { type: 'string' },
    development_mode: { type: 'number' },
    name_servers: { type: 'array', items: { type: 'string' } },
    original_name_servers: { type: 'null' },
    original_registrar: { type: 'null' },
    original_dnshost: { type: 'null' },
    vanity_name_servers: { type: 'array', items: { type: 'string' } },
    created_on: { type: 'string', format: 'date-time' },
    modified_on: { type: 'string', format: 'date-time' },
    activated_on: { type: 'string', format: 'date-time' },
    meta: { type: 'object' },
    owner: { type: 'object' },
    account: {
      type: 'object',
      properties: { id: { type: 'string' }, name: { type: 'string' } },
      required: ['id', 'name'],
    },
    permissions: { type: 'array', items: { type: 'string' } },
    plan: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        name: { type: 'string' },
        price: { type: 'number' },
        currency: { type: 'string' },
        frequency: { type: 'string' },
        is_subscribed: { type: 'boolean' },
        can_subscribe: { type: 'boolean' },
        legacy_id: { type: 'string', enum: ['free', 'pro', 'business', 'enterprise'] },
        legacy_discount: { type: 'boolean' },
        externally_managed: { type: 'boolean' },
      },
      required: ['id', 'name', 'legacy_id'],
      additionalProperties: false,
    },
  },
  required: ['id', 'name', 'status', 'paused', 'account', 'plan', 'created_on', 'modified_on'],
  additionalProperties: false,
};
