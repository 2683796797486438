import { createManagedUser, registerApp, signUp } from '@cairn/identity';
import { type AuthContext, generateToken, hashToken, newId } from '@cairn/kit';
// No exported way to issue a third-party (OAuth) user's token without the browser flow: stored through
// identity's own store function, as the token endpoint does (as in access.test.ts).
import { insertAccessToken } from '../../identity/src/store/access-tokens.ts';
import type { PlacesFixture } from './helpers.ts';

export interface Caller {
  token: string;
  auth: AuthContext;
}

let serial = 0;

/** A managed user of the fixture's organization, with its token and resolved auth context. */
export async function managedUser(f: PlacesFixture, firstName = `User${++serial}`): Promise<Caller> {
  const created = await createManagedUser(f.identity.deps, await f.identity.resolveBearer(f.serviceKey), {
    firstName,
    lastName: null,
  });
  return { token: created.access_token, auth: await f.identity.resolveBearer(created.access_token) };
}

/** A person with an account, connected to a third-party app of the fixture's organization. */
export async function oauthUser(f: PlacesFixture): Promise<Caller & { appId: string }> {
  const person = await signUp(f.identity.deps, {
    email: `person${++serial}-${Date.now()}@example.com`,
    displayName: 'Ada',
    password: 'correct horse battery staple',
  });
  const { app } = await registerApp(f.identity.deps, {
    organizationId: f.orgId,
    name: `Editor app ${serial}`,
    redirectUris: ['https://app.example.com/callback'],
  } as Parameters<typeof registerApp>[1]);
  const token = generateToken('accessToken');
  await insertAccessToken(
    f.deps.db,
    {
      id: newId(),
      kind: 'oauth_user',
      userId: person.userId,
      organizationId: f.orgId,
      appId: app.id,
      createdAt: f.clock.now(),
    },
    hashToken(token),
  );
  return { token, auth: await f.identity.resolveBearer(token), appId: app.id };
}

export async function serviceKeyCaller(f: PlacesFixture): Promise<Caller> {
  return { token: f.serviceKey, auth: await f.identity.resolveBearer(f.serviceKey) };
}

/** Calls the places API with any method; the query is given as an object. */
export async function api<T = Record<string, unknown>>(
  f: PlacesFixture,
  method: 'GET' | 'POST',
  path: string,
  query: Record<string, string> = {},
  token: string = f.serviceKey,
) {
  const qs = new URLSearchParams(query).toString();
  const response = await fetch(`${f.baseUrl}${path}${qs ? `?${qs}` : ''}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'x-places-api-version': '2025-06-17' },
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, body: body as T & { message?: string } };
}

/** Ids of generated places, in a stable order; each test takes its own so edits do not interfere. */
export async function placeIds(f: PlacesFixture): Promise<string[]> {
  const { rows } = await f.deps.db.query<{ fsq_place_id: string }>(
    'SELECT fsq_place_id FROM places ORDER BY fsq_place_id',
  );
  return rows.map((r) => r.fsq_place_id);
}

export async function count(f: PlacesFixture, table: string): Promise<number> {
  const { rows } = await f.deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]!.n;
}
