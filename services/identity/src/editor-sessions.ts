import { hashToken } from '@cairn/kit';
import { openBrowserSession } from './accounts/service.ts';
import type { IdentityDeps } from './deps.ts';
import type { RedeemedSession } from './session-tokens/service.ts';
import { findAccessTokenById } from './store/access-tokens.ts';
import { findAccountByUserId } from './store/accounts.ts';
import { findAppById } from './store/apps.ts';
import { findLiveBrowserSession } from './store/browser-sessions.ts';
import { findOrganization } from './store/organizations.ts';

/**
 * The embedded editing UI's session: a browser session bound to the person and the app that opened it
 * (from a redeemed session token). Disconnecting the app ends it (see disconnectApp).
 */
export interface EditorSession {
  sessionId: string;
  userId: number;
  displayName: string;
  /**
   * The person consented to the placemaker permission for this app (`mode=placemaker`) and the access token
   * the session came from is still live: the editor API allows writes only then.
   */
  placemaker: boolean;
  app: { id: string; name: string; organizationId: string; organizationName: string; embedOrigins: string[] };
}

export async function openEditorSession(
  deps: Pick<IdentityDeps, 'db' | 'clock'>,
  redeemed: RedeemedSession,
): Promise<{ cookie: string; expiresAt: Date }> {
  const { cookie, session } = await openBrowserSession(deps, redeemed.userId, {
    appId: redeemed.appId,
    accessTokenId: redeemed.accessTokenId,
  });
  return { cookie, expiresAt: session.expiresAt };
}

export async function editorSessionOf(
  deps: Pick<IdentityDeps, 'db' | 'clock'>,
  cookie: string | undefined,
): Promise<EditorSession | undefined> {
  if (!cookie || !/^bs_[A-Za-z0-9_-]{43}$/.test(cookie)) return undefined;
  const session = await findLiveBrowserSession(deps.db, hashToken(cookie), deps.clock.now());
  if (!session?.appId) return undefined;
  const [account, app, token] = await Promise.all([
    findAccountByUserId(deps.db, session.userId),
    findAppById(deps.db, session.appId),
    session.accessTokenId ? findAccessTokenById(deps.db, session.accessTokenId) : undefined,
  ]);
  if (!account || !app || app.revokedAt) return undefined;
  const organization = await findOrganization(deps.db, app.organizationId);
  return {
    sessionId: session.id,
    userId: account.userId,
    displayName: account.displayName,
    placemaker: token?.placemaker === true && token.revokedAt === null,
    app: {
      id: app.id,
      name: app.name,
      organizationId: app.organizationId,
      organizationName: organization?.name ?? '',
      embedOrigins: app.embedOrigins,
    },
  };
}
