import {
  type AuthContext,
  forbidden,
  generateToken,
  hashToken,
  newId,
  notFound,
  type Queryable,
} from '@cairn/kit';
import { announceRevoked } from '../auth/revocations.ts';
import type { IdentityDeps } from '../deps.ts';
import { insertAccessToken, revokeUserTokens } from '../store/access-tokens.ts';
import { findManagedUserForUpdate, insertManagedUser, markUserDeleted } from '../store/users.ts';

/**
 * Managed users belong to the organization whose service key created them. Only a service key may manage
 * them (a managed user's own token is no key to these calls), and an organization sees only its own:
 * another organization's user is answered exactly like a user that does not exist (404), so ids leak nothing.
 */
export function requireServiceKey(auth: AuthContext): void {
  if (auth.kind !== 'service_key') {
    const what =
      auth.kind === 'managed_user' ? "a managed user's access token" : "a third-party user's access token";
    throw forbidden(
      `Managed users can only be managed with an organization's service key; this request used ${what}`,
    );
  }
}

function noSuchUser(userId: number) {
  return notFound(`No managed user with target_user_id ${userId} in your organization`);
}

async function issueToken(
  tx: Queryable,
  deps: IdentityDeps,
  auth: AuthContext,
  userId: number,
): Promise<string> {
  const token = generateToken('managedUser');
  await insertAccessToken(
    tx,
    {
      id: newId(),
      kind: 'managed_user',
      userId,
      organizationId: auth.organizationId,
      appId: auth.appId ?? null,
      createdAt: deps.clock.now(),
    },
    hashToken(token),
  );
  return token;
}

export async function createManagedUser(
  deps: IdentityDeps,
  auth: AuthContext,
  names: { firstName: string | null; lastName: string | null },
): Promise<{ user_id: number; access_token: string }> {
  requireServiceKey(auth);
  return deps.db.transaction(async (tx) => {
    const userId = await insertManagedUser(tx, {
      organizationId: auth.organizationId,
      firstName: names.firstName,
      lastName: names.lastName,
      createdAt: deps.clock.now(),
    });
    return { user_id: userId, access_token: await issueToken(tx, deps, auth, userId) };
  });
}

/** A new access token; every earlier token of the user stops working. */
export async function refreshManagedUserToken(
  deps: IdentityDeps,
  auth: AuthContext,
  userId: number,
): Promise<{ access_token: string }> {
  requireServiceKey(auth);
  const { token, revoked } = await deps.db.transaction(async (tx) => {
    const user = await findManagedUserForUpdate(tx, auth.organizationId, userId);
    if (!user) throw noSuchUser(userId);
    const revoked = await revokeUserTokens(tx, userId, deps.clock.now(), 'refreshed');
    await announceRevoked(tx, revoked);
    return { token: await issueToken(tx, deps, auth, userId), revoked };
  });
  deps.resolver.forget(revoked);
  return { access_token: token };
}

export async function deleteManagedUser(
  deps: IdentityDeps,
  auth: AuthContext,
  userId: number,
): Promise<{ user_id: number; deleted: true }> {
  requireServiceKey(auth);
  const revoked = await deps.db.transaction(async (tx) => {
    const user = await findManagedUserForUpdate(tx, auth.organizationId, userId);
    if (!user) throw noSuchUser(userId);
    const now = deps.clock.now();
    await markUserDeleted(tx, userId, now);
    const hashes = await revokeUserTokens(tx, userId, now, 'user deleted');
    await announceRevoked(tx, hashes);
    return hashes;
  });
  deps.resolver.forget(revoked);
  return { user_id: userId, deleted: true };
}
