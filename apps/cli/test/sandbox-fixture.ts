import { createDashboardUser, createZone, edgeMigrations, ensureAccount } from '@cairn/edge';
import {
  bootstrapDemo,
  createOrganization,
  createServiceKey,
  identityMigrations,
  registerApp,
  signUp,
} from '@cairn/identity';
import { createTestDeps, serveOnLoopback, type TestDeps } from '@cairn/kit/testing';
import { placesMigrations } from '@cairn/places';
import { composeServices, type Services } from '../src/runtime.ts';
import {
  createSandbox,
  createSandboxClock,
  markSandboxDatabase,
  type Sandbox,
} from '../src/sandbox/index.ts';

export const PASSWORD = 'a long password 1';
export const REDIRECT = 'https://app.example.com/callback';
export const USERS_API = { 'x-users-api-version': '2025-06-17', accept: 'application/json' };

export interface SandboxFixture {
  deps: TestDeps;
  services: Services;
  sandbox: Sandbox;
  baseUrl: string;
  /** The bootstrap service key (the Demo organization's, generated on this start). */
  key: string;
  /** Another organization's key: not the bootstrap one. */
  otherKey: string;
  clientId: string;
  clientSecret: string;
  email: string;
  zoneId: string;
  /** Calls a control with the bootstrap key; JSON in and out. */
  control(method: string, path: string, body?: unknown, key?: string | null): Promise<Answer>;
  close(): Promise<void>;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/**
 * Every service on one test database in sandbox mode, as `cairn serve` with CAIRN_SANDBOX=1 composes them,
 * with fixtures: an organization with an app, a person, an edge zone and a dashboard login. Places are
 * rate-limited at 1 a second with bursts of 3, so the rate-limit window is quick to reach.
 */
export async function startSandbox(): Promise<SandboxFixture> {
  const clock = createSandboxClock();
  const deps = await createTestDeps([...identityMigrations, ...placesMigrations, ...edgeMigrations], {
    clock,
  });
  await markSandboxDatabase(deps.db);
  const services = composeServices(deps, {
    PLACES_DEMO_COUNT: '0',
    PLACES_RATE_LIMIT: '1',
    PLACES_RATE_BURST: '3',
  });
  await services.identity.start();
  await services.places.start();
  await services.placemakers.start();
  const boot = await bootstrapDemo(services.identity.deps, undefined);
  const sandbox = createSandbox({ deps, ...services });
  const server = await serveOnLoopback(deps, [sandbox.module, ...services.modules]);

  const identity = services.identity.deps;
  const org = await createOrganization(identity, 'Trail Co');
  const otherKey = (await createServiceKey(identity, { organizationId: org.id })).secret;
  const { app, clientSecret } = await registerApp(identity, {
    organizationId: org.id,
    name: 'Trailfinder',
    redirectUris: [REDIRECT],
  });
  const email = 'walker@example.com';
  await signUp(identity, { email, displayName: 'Wanda Walker', password: PASSWORD });
  const account = await ensureAccount(services.edge.deps);
  await createDashboardUser(services.edge.deps, {
    accountId: account.id,
    email: 'ops@example.com',
    password: PASSWORD,
  });
  const zone = await createZone(services.edge.deps, {
    accountId: account.id,
    name: 'trail.example',
    plan: 'free',
  });
  await sandbox.ready();

  const key = boot!.newServiceKey!;
  return {
    deps,
    services,
    sandbox,
    baseUrl: server.baseUrl,
    key,
    otherKey,
    clientId: app.clientId,
    clientSecret,
    email,
    zoneId: zone.id,
    async control(method, path, body, withKey = key) {
      const res = await fetch(`${server.baseUrl}/_cairn${path}`, {
        method,
        headers: {
          ...(withKey ? { authorization: `Bearer ${withKey}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return {
        status: res.status,
        headers: res.headers,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      };
    },
    async close() {
      await server.close();
      await services.places.stop();
      await services.identity.stop();
      await deps.db.close();
    },
  };
}

/** A browser for forms: keeps cookies, does not follow redirects. */
export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, form?: Record<string, string>) {
    const res = await fetch(path.startsWith('http') ? path : `${this.baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(this.cookies.size > 0
          ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
          : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';', 1)[0]!;
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    return { status: res.status, text: await res.text(), location: res.headers.get('location') };
  }
}

export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(m[0])?.[1];
    const value = /value="([^"]*)"/.exec(m[0])?.[1] ?? '';
    if (name) fields[name] = value.replaceAll('&amp;', '&').replaceAll('&quot;', '"');
  }
  return fields;
}
