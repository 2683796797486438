import { badRequest, generateToken, hashToken, newId, notFound, tokenHint } from '@cairn/kit';
import { announceRevoked } from '../auth/revocations.ts';
import type { IdentityDeps } from '../deps.ts';
import {
  insertServiceKey,
  listServiceKeys as listRows,
  revokeServiceKeyRow,
  type ServiceKeyRecord,
} from '../store/service-keys.ts';

export type ServiceKey = ServiceKeyRecord;

/** A new key; `secret` is returned here once and never again (only its hash is stored). */
export interface CreatedServiceKey {
  key: ServiceKey;
  secret: string;
}

const NAME_MAX = 100;

export async function createServiceKey(
  deps: Pick<IdentityDeps, 'db' | 'clock'>,
  input: { organizationId: string; name?: string; appId?: string | null; secret?: string },
): Promise<CreatedServiceKey> {
  const name = (input.name ?? 'Service key').trim();
  if (name === '' || name.length > NAME_MAX) throw badRequest(`Key name must be 1 to ${NAME_MAX} characters`);
  const secret = input.secret ?? generateToken('serviceKey');
  const key: ServiceKey = {
    id: newId(),
    organizationId: input.organizationId,
    appId: input.appId ?? null,
    name,
    hint: tokenHint(secret),
    createdAt: deps.clock.now(),
    revokedAt: null,
  };
  await insertServiceKey(deps.db, key, hashToken(secret));
  return { key, secret };
}

export function listServiceKeys(
  deps: Pick<IdentityDeps, 'db'>,
  organizationId?: string,
): Promise<ServiceKey[]> {
  return listRows(deps.db, organizationId);
}

/** Revokes a key; within `organizationId` only when given (the console), any key otherwise (the CLI). */
export async function revokeServiceKey(
  deps: IdentityDeps,
  id: string,
  organizationId?: string,
): Promise<void> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) {
    throw badRequest(`"${id}" is not a service key id (expected a UUID as shown by "cairn keys list")`);
  }
  const hash = await deps.db.transaction(async (tx) => {
    const revoked = await revokeServiceKeyRow(tx, id, deps.clock.now(), organizationId);
    if (revoked) await announceRevoked(tx, [revoked]);
    return revoked;
  });
  if (!hash) throw notFound(`No live service key with id ${id}`);
  deps.resolver.forget([hash]);
}
