import { generateToken, hashToken, tokenHint } from '@cairn/kit';
import type { EdgeDeps } from '../../deps.ts';
import { newHexId } from '../ids.ts';
import { type Grant, parsePermissions } from './permissions.ts';
import { insertToken, listTokens, revokeTokenRow, type TokenRecord } from './store.ts';

export type ApiToken = TokenRecord;

/** A new API token; `secret` is shown this once (only its SHA-256 is stored). */
export async function createApiToken(
  deps: Pick<EdgeDeps, 'db' | 'clock'>,
  input: { accountId: string; name: string; zoneIds: string[]; permissions: string[] },
): Promise<{ token: ApiToken; secret: string }> {
  const permissions = parsePermissions(input.permissions);
  if (typeof permissions === 'string') throw new Error(permissions);
  if (input.zoneIds.length === 0)
    throw new Error('give at least one zone (or * for every zone of the account)');
  const secret = generateToken('edgeApiToken');
  const grants: Grant[] = [];
  for (const zoneId of new Set(input.zoneIds))
    for (const p of permissions) grants.push({ zoneId, permission: p });
  const token: ApiToken = {
    id: newHexId(),
    accountId: input.accountId,
    name: input.name,
    hint: tokenHint(secret),
    createdAt: deps.clock.now(),
    revokedAt: null,
    grants,
  };
  await deps.db.transaction((tx) => insertToken(tx, token, hashToken(secret)));
  return { token, secret };
}

export const listApiTokens = (deps: Pick<EdgeDeps, 'db'>) => listTokens(deps.db);

/** Revokes a token; it is refused from the next request on, in every process (no cache). */
export async function revokeApiToken(deps: Pick<EdgeDeps, 'db' | 'clock'>, id: string): Promise<boolean> {
  return revokeTokenRow(deps.db, id, deps.clock.now());
}
