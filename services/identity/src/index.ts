import type { AppDeps, ResolveBearer, ServiceModule } from '@cairn/kit';
import { type BearerResolver, createBearerResolver } from './auth/resolve-bearer.ts';
import type { IdentityDeps } from './deps.ts';
import { identityMigrations } from './migrations.ts';
import { usersApiRoutes } from './users-api/routes.ts';

export { type BootstrapResult, bootstrapDemo, DEMO_ORGANIZATION } from './bootstrap.ts';
export type { IdentityDeps } from './deps.ts';
export { createManagedUser, deleteManagedUser, refreshManagedUserToken } from './managed-users/service.ts';
export { identityMigrations } from './migrations.ts';
export { createOrganization, getOrganization, listOrganizations } from './organizations/service.ts';
export {
  type CreatedServiceKey,
  createServiceKey,
  listServiceKeys,
  revokeServiceKey,
  type ServiceKey,
} from './service-keys/service.ts';
export type { Organization } from './store/organizations.ts';

export interface Identity {
  module: ServiceModule;
  deps: IdentityDeps;
  /** The one function other services use: bearer credential → auth context (401 CairnError otherwise). */
  resolveBearer: ResolveBearer;
  resolver: BearerResolver;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createIdentity(app: Pick<AppDeps, 'db' | 'clock' | 'config'>): Identity {
  const resolver = createBearerResolver(app.db, app.clock, { ttlMs: app.config.authCacheTtlMs });
  const deps: IdentityDeps = { db: app.db, clock: app.clock, resolver };
  const resolveBearer: ResolveBearer = (token) => resolver.resolve(token);
  return {
    deps,
    resolver,
    resolveBearer,
    module: {
      name: 'identity',
      title: 'Users API and authorization server',
      migrations: identityMigrations,
      plugin: async (app) => {
        await app.register(usersApiRoutes(deps, resolveBearer));
      },
    },
    start: () => resolver.start(),
    stop: () => resolver.stop(),
  };
}
