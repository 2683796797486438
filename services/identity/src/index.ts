import {
  type AppDeps,
  type AuthenticateHook,
  acceptFormBodies,
  authenticate,
  type ResolveBearer,
  type ServiceModule,
} from '@cairn/kit';
import cookie from '@fastify/cookie';
import { type BearerResolver, createBearerResolver } from './auth/resolve-bearer.ts';
import { consoleRoutes } from './console/routes.ts';
import type { IdentityDeps } from './deps.ts';
import { identityMigrations } from './migrations.ts';
import { oauthRoutes } from './oauth/routes.ts';
import { usersApiRoutes } from './users-api/routes.ts';
import { accountRoutes } from './web/account-routes.ts';

export { disconnectApp, listConnectedApps } from './accounts/connected-apps.ts';
export { addMember } from './accounts/members.ts';
export { type Person, signUp } from './accounts/service.ts';
export {
  type App,
  authenticateClient,
  listOrganizationApps,
  registerApp,
  revokeApp,
  setPkceRequired,
} from './apps/service.ts';
export { type BootstrapResult, bootstrapDemo, DEMO_ORGANIZATION } from './bootstrap.ts';
export type { IdentityDeps } from './deps.ts';
export { type EditorSession, editorSessionOf, openEditorSession } from './editor-sessions.ts';
export { createManagedUser, deleteManagedUser, refreshManagedUserToken } from './managed-users/service.ts';
export { identityMigrations } from './migrations.ts';
export { grantInProcess, sessionTokenInProcess } from './oauth/in-process-flow.ts';
export { createOrganization, getOrganization, listOrganizations } from './organizations/service.ts';
export {
  type CreatedServiceKey,
  createServiceKey,
  listServiceKeys,
  revokeServiceKey,
  type ServiceKey,
} from './service-keys/service.ts';
export {
  createSessionToken,
  PLACEMAKER_CONSENT_MISSING,
  type RedeemedSession,
  redeemSessionToken,
  SESSION_TOKEN_TTL_MS,
} from './session-tokens/service.ts';
export type { Organization } from './store/organizations.ts';

export interface Identity {
  module: ServiceModule;
  deps: IdentityDeps;
  /** Bearer credential → auth context (401 CairnError otherwise). */
  resolveBearer: ResolveBearer;
  /** The onRequest hook every bearer-protected API installs: sets request.auth from the Authorization header. */
  authenticate: AuthenticateHook;
  resolver: BearerResolver;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createIdentity(app: Pick<AppDeps, 'db' | 'clock' | 'config'>): Identity {
  const resolver = createBearerResolver(app.db, app.clock, { ttlMs: app.config.authCacheTtlMs });
  const deps: IdentityDeps = { db: app.db, clock: app.clock, resolver };
  const resolveBearer: ResolveBearer = (token) => resolver.resolve(token);
  const authenticateHook = authenticate((header) => resolver.resolveAuthorization(header));
  const issuer = app.config.publicUrl;
  return {
    deps,
    resolver,
    resolveBearer,
    authenticate: authenticateHook,
    module: {
      name: 'identity',
      title: 'Users API, OAuth 2.0 authorization server, accounts and developer console',
      migrations: identityMigrations,
      plugin: async (app) => {
        await app.register(cookie);
        acceptFormBodies(app);
        await app.register(usersApiRoutes(deps, authenticateHook));
        await app.register(oauthRoutes(deps, issuer));
        await app.register(accountRoutes(deps, issuer));
        await app.register(consoleRoutes(deps, issuer));
      },
    },
    start: () => resolver.start(),
    stop: () => resolver.stop(),
  };
}
