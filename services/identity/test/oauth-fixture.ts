import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { registerApp, signUp } from '../src/index.ts';
import { FormClient, hiddenFields } from './form-client.ts';
import { type IdentityFixture, startIdentity } from './helpers.ts';

export const REDIRECT = 'https://app.example.com/callback';
export const PASSWORD = 'correct horse battery';

export interface OAuthFixture extends IdentityFixture {
  clientId: string;
  clientSecret: string;
  appId: string;
  email: string;
}

export async function startOAuth(
  options: { redirectUris?: string[]; firstParty?: boolean; embedOrigins?: string[] } = {},
): Promise<OAuthFixture> {
  const f = await startIdentity();
  const { app, clientSecret } = await registerApp(f.identity.deps, {
    organizationId: f.orgId,
    name: 'Trailfinder',
    redirectUris: options.redirectUris ?? [REDIRECT],
    firstParty: options.firstParty ?? false,
    embedOrigins: options.embedOrigins ?? [],
  });
  const email = `walker-${randomBytes(4).toString('hex')}@example.com`;
  await signUp(f.identity.deps, { email, displayName: 'Wanda Walker', password: PASSWORD });
  return { ...f, clientId: app.clientId, clientSecret, appId: app.id, email };
}

/** Signs up another person; returns the email. */
export async function newPerson(f: IdentityFixture, displayName = 'Pat Person'): Promise<string> {
  const email = `person-${randomBytes(4).toString('hex')}@example.com`;
  await signUp(f.identity.deps, { email, displayName, password: PASSWORD });
  return email;
}

export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function signedInClient(f: OAuthFixture, email = f.email): Promise<FormClient> {
  const client = new FormClient(f.baseUrl);
  const page = await client.get('/account/signin');
  const res = await client.post('/account/signin', { ...hiddenFields(page.text), email, password: PASSWORD });
  expect(res.status, res.text).toBe(303);
  return client;
}

/** Runs the authorization endpoint as a signed-in person who answers the consent page; returns the redirect. */
export async function authorize(
  client: FormClient,
  f: OAuthFixture,
  params: Record<string, string>,
  decision: 'allow' | 'deny' = 'allow',
): Promise<URL> {
  const query = new URLSearchParams({
    client_id: f.clientId,
    response_type: 'code',
    redirect_uri: REDIRECT,
    ...params,
  });
  let res = await client.get(`/oauth2/authenticate?${query}`);
  if (res.status === 200) {
    expect(res.text).toContain('Allow');
    res = await client.post('/oauth2/authenticate', { ...hiddenFields(res.text), decision });
  }
  expect(res.status, res.text).toBe(303);
  return new URL(res.location!);
}

export async function exchange(f: OAuthFixture, params: Record<string, string>, init: RequestInit = {}) {
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    client_id: f.clientId,
    client_secret: f.clientSecret,
    redirect_uri: REDIRECT,
    ...params,
  });
  const res = await fetch(`${f.baseUrl}/oauth2/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
    ...init,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, string> };
}

export async function sessionToken(f: IdentityFixture, token: string) {
  const res = await fetch(`${f.baseUrl}/auth/session-token`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'x-users-api-version': '2025-06-17',
      accept: 'application/json',
    },
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}
