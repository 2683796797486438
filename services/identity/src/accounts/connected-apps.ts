import { announceRevoked } from '../auth/revocations.ts';
import type { IdentityDeps } from '../deps.ts';
import { connectedApps, revokeUserTokens } from '../store/access-tokens.ts';
import { revokeAppBrowserSessions } from '../store/browser-sessions.ts';
import { deleteConsent } from '../store/consents.ts';

export function listConnectedApps(deps: Pick<IdentityDeps, 'db'>, userId: number) {
  return connectedApps(deps.db, userId);
}

/**
 * "Users control the connection": disconnecting revokes every token the app holds for this person, its
 * editing-UI sessions and the remembered consent, at once and in every process.
 */
export async function disconnectApp(deps: IdentityDeps, userId: number, appId: string): Promise<number> {
  const hashes = await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const revoked = await revokeUserTokens(tx, userId, now, 'disconnected by the user', appId);
    await revokeAppBrowserSessions(tx, userId, appId, now);
    await deleteConsent(tx, userId, appId);
    await announceRevoked(tx, revoked);
    return revoked;
  });
  deps.resolver.forget(hashes);
  return hashes.length;
}
