import { createFakeClock, type FakeClock } from '@cairn/kit';
import { createTestDeps, serveOnLoopback, type TestDeps } from '@cairn/kit/testing';
import {
  createIdentity,
  createOrganization,
  createServiceKey,
  type Identity,
  identityMigrations,
} from '../src/index.ts';

export interface IdentityFixture {
  deps: TestDeps;
  clock: FakeClock;
  identity: Identity;
  baseUrl: string;
  orgId: string;
  serviceKey: string;
  close(): Promise<void>;
}

/** Identity on a fresh database, served on loopback, with one organization ("Acme") and its service key. */
export async function startIdentity(
  env: Record<string, string> = {},
  options: { clockStart?: number } = {},
): Promise<IdentityFixture> {
  // A real browser drops cookies that expired by its own clock: browser tests start the fake clock at now.
  const clock = createFakeClock(options.clockStart);
  const deps = await createTestDeps(identityMigrations, { clock, env });
  const identity = createIdentity(deps);
  await identity.start();
  const server = await serveOnLoopback(deps, [identity.module]);
  const org = await createOrganization(identity.deps, 'Acme');
  const { secret } = await createServiceKey(identity.deps, { organizationId: org.id });
  return {
    deps,
    clock,
    identity,
    baseUrl: server.baseUrl,
    orgId: org.id,
    serviceKey: secret,
    async close() {
      await server.close();
      await identity.stop();
      await deps.db.close();
    },
  };
}

export interface CallOptions {
  token?: string | null;
  version?: string | null;
  accept?: string | null;
  method?: string;
  headers?: Record<string, string>;
}

/** A users API call as the seed shows it: Bearer, X-Users-Api-Version and Accept headers, query parameters. */
export async function callUsersApi(baseUrl: string, pathAndQuery: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== null && options.token !== undefined)
    headers.authorization = `Bearer ${options.token}`;
  if (options.version !== null) headers['x-users-api-version'] = options.version ?? '2025-06-17';
  if (options.accept !== null) headers.accept = options.accept ?? 'application/json';
  const response = await fetch(`${baseUrl}${pathAndQuery}`, { method: options.method ?? 'POST', headers });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body: body as Record<string, unknown> };
}
