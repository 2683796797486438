import { hashToken } from '@cairn/kit';
import { openBrowserSession } from './accounts/service.ts';
import type { IdentityDeps } from './deps.ts';
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
  app: { id: string; name: string; organizationId: string; organizationName: string; embedOrigins: string[] };
}

export async function openEditorSession(
  deps: Pick<IdentityDeps, 'db' | 'clock'>,
  userId: number,
  appId: string,
): Promise<{ cookie: string; expiresAt: Date }> {
  const { cookie, session } = await openBrowserSession(deps, userId, appId);
  return { cookie, expiresAt: session.expiresAt };
}

export async function editorSessionOf(
  deps: Pick<IdentityDeps, 'db' | 'clock'>,
  cookie: string | undefined,
): Promise<EditorSession | undefined> {
  if (!cookie || !/^bs_[A-Za-z0-9_-]{43}$/.test(cookie)) return undefined;
  const session = await findLiveBrowserSession(deps.db, hashToken(cookie), deps.clock.now());
  if (!session?.appId) return undefined;
  const [account, app] = await Promise.all([
    findAccountByUserId(deps.db, session.userId),
    findAppById(deps.db, session.appId),
  ]);
  if (!account || !app || app.revokedAt) return undefined;
  const organization = await findOrganization(deps.db, app.organizationId);
  return {
    sessionId: session.id,
    userId: account.userId,
    displayName: account.displayName,
    app: {
      id: app.id,
      name: app.name,
      organizationId: app.organizationId,
      organizationName: organization?.name ?? '',
      embedOrigins: app.embedOrigins,
    },
  };
}
