import { createManagedUser } from '@cairn/identity';
import { connectThirdPartyUser } from '@cairn/identity/testing';
import type { AuthContext } from '@cairn/kit';
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
  const connected = await connectThirdPartyUser(f.identity.deps, { organizationId: f.orgId });
  return {
    token: connected.accessToken,
    auth: await f.identity.resolveBearer(connected.accessToken),
    appId: connected.appId,
  };
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
