import type { EdgeDeps } from '../../deps.ts';
import type { Message } from '../envelope.ts';
import { EDGE_CODES, edgeError, invalidValue } from '../errors.ts';
import { newHexId } from '../ids.ts';
import { planChangeMessage, stateAfterPlanChange } from '../migration/plan-change.ts';
import { otherAccountsZones, ownershipVerification } from './ownership.ts';
import { type PlanName, planJson } from './plans.ts';
import {
  deleteZoneRow,
  findZone,
  insertZone,
  lockZone,
  lockZoneNames,
  type MigrationState,
  updateZone,
  type Zone,
} from './store.ts';

export const ZONE_NAME =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/**
 * A zone's origin (Cairn extension): an http or https URL of scheme, host and optional port, nothing else
 * (`http://127.0.0.1:3000`); `""` clears it. Returns the normalised URL or null.
 */
export function checkOrigin(value: string, pointer: string): string | null {
  if (value === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidValue(pointer, value, 'it must be an http or https URL such as http://127.0.0.1:3000');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidValue(pointer, value, 'the origin must use http or https');
  if (url.username || url.password || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
    throw invalidValue(
      pointer,
      value,
      'the origin is a scheme, a host and a port only, without path, query or credentials',
    );
  return url.origin;
}

/** Free zones never had the previous WAF (state "default"); paid zones start on it ("start"). */
export const initialMigrationState = (plan: PlanName): MigrationState =>
  plan === 'free' ? 'default' : 'start';

export async function createZone(
  deps: Pick<EdgeDeps, 'db' | 'clock'>,
  input: { accountId: string; name: string; plan: PlanName; origin?: string },
  pointer = '/name',
): Promise<Zone> {
  const origin = input.origin === undefined ? null : checkOrigin(input.origin, '/origin');
  const name = input.name.toLowerCase();
  if (!ZONE_NAME.test(name))
    throw invalidValue(pointer, input.name, 'it must be a domain name such as example.com');
  const now = deps.clock.now();
  const id = newHexId();
  // Under or over another account's zone: pending until that account confirms (ownership.ts). The
  // check and the insert hold one lock, so two accounts creating overlapping names at once can't both
  // find the tree empty.
  const inserted = await deps.db.transaction(async (tx) => {
    await lockZoneNames(tx);
    const pending = (await otherAccountsZones(tx, input.accountId, name)).length > 0;
    return insertZone(tx, {
      id,
      accountId: input.accountId,
      name,
      plan: input.plan,
      paused: false,
      createdOn: now,
      modifiedOn: now,
      wafMigrationState: initialMigrationState(input.plan),
      wafMigrationChangedAt: now,
      origin,
      status: pending ? 'pending' : 'active',
      verificationKey: pending ? newHexId() : null,
    });
  });
  if (!inserted) throw edgeError(400, EDGE_CODES.zoneExists, `${name} already exists`, { pointer });
  const zone = await findZone(deps.db, id);
  if (!zone) throw new Error(`zone ${id} vanished after insert`);
  return zone;
}

/**
 * Changes a zone, with its row locked (an upgrade in progress finishes first). A plan change may move
 * the upgrade state (`stateAfterPlanChange`); the database records it with cause `plan`, and the answer
 * says so in `messages`.
 */
export async function changeZone(
  deps: Pick<EdgeDeps, 'db' | 'clock'>,
  zone: Zone,
  change: { plan?: PlanName; paused?: boolean; origin?: string },
): Promise<{ zone: Zone; messages: Message[] }> {
  const origin = change.origin === undefined ? undefined : checkOrigin(change.origin, '/origin');
  return deps.db.transaction(async (tx) => {
    const current = (await lockZone(tx, zone.id)) ?? zone;
    const from = current.wafMigrationState;
    const to = change.plan ? stateAfterPlanChange(from, change.plan) : undefined;
    await updateZone(
      tx,
      zone.id,
      {
        ...(change.plan ? { plan: change.plan } : {}),
        ...(change.paused === undefined ? {} : { paused: change.paused }),
        ...(origin === undefined ? {} : { origin }),
        ...(to ? { wafMigrationState: to } : {}),
      },
      deps.clock.now(),
    );
    const updated = await findZone(tx, zone.id);
    if (!updated) throw new Error(`zone ${zone.id} vanished`);
    const messages = to && change.plan ? [planChangeMessage(updated.name, from, to, change.plan)] : [];
    return { zone: updated, messages };
  });
}

export async function deleteZone(deps: Pick<EdgeDeps, 'db'>, zone: Zone): Promise<void> {
  await deleteZoneRow(deps.db, zone.id);
}

export function zoneJson(zone: Zone) {
  return {
    id: zone.id,
    name: zone.name,
    status: zone.status,
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
    activated_on: zone.status === 'active' ? zone.createdOn.toISOString() : null,
    verification_key: zone.verificationKey,
    ownership_verification: ownershipVerification(zone),
    meta: { step: 4, custom_certificate_quota: 0, page_rule_quota: 0, phishing_detected: false },
    owner: { id: null, type: 'organization', name: zone.accountName },
    account: { id: zone.accountId, name: zone.accountName },
    permissions: [],
    plan: planJson(zone.plan),
    origin: zone.origin,
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
    activated_on: { type: ['string', 'null'], format: 'date-time' },
    verification_key: {
      type: ['string', 'null'],
      description: 'A pending zone: the value of the TXT record the overlapped account adds',
    },
    ownership_verification: {
      type: ['object', 'null'],
      description:
        'Cairn extension: a pending zone overlaps another account’s zone; that account adds this TXT record to its zone, then PUT /zones/{id}/activation_check',
      properties: { type: { type: 'string' }, name: { type: 'string' }, value: { type: 'string' } },
    },
    meta: { type: 'object' },
    owner: { type: 'object' },
    account: {
      type: 'object',
      properties: { id: { type: 'string' }, name: { type: 'string' } },
      required: ['id', 'name'],
    },
    permissions: { type: 'array', items: { type: 'string' } },
    origin: {
      type: ['string', 'null'],
      description: 'Cairn extension: where the edge proxy sends the zone traffic (null: not proxied)',
    },
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
