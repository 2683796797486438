import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, registerApp, setPkceRequired } from '../src/index.ts';
import { hiddenFields } from './form-client.ts';
import {
  exchange,
  newPerson,
  type OAuthFixture,
  pkcePair,
  REDIRECT,
  signedInClient,
  startOAuth,
} from './oauth-fixture.ts';

/** Per-app PKCE requirement (issue 14): off by default (the seed's flow), enforced when an app turns it on. */
let f: OAuthFixture;
beforeAll(async () => {
  f = await startOAuth();
});
afterAll(async () => {
  await f.close();
});

async function strictApp() {
  const { app, clientSecret } = await registerApp(f.identity.deps, {
    organizationId: f.orgId,
    name: 'Strict App',
    redirectUris: [REDIRECT],
    pkceRequired: true,
  });
  return { app, fixture: { ...f, clientId: app.clientId, clientSecret, appId: app.id } };
}

const authorizeUrl = (clientId: string, extra: Record<string, string> = {}) =>
  `/oauth2/authenticate?${new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: REDIRECT, state: 's', ...extra })}`;

describe('an app that requires PKCE', () => {
  it('gets invalid_request at /oauth2/authenticate without a code_challenge (RFC 7636 §4.4.1)', async () => {
    const { app } = await strictApp();
    const client = await signedInClient(f);
    const res = await client.get(authorizeUrl(app.clientId));
    expect(res.status).toBe(303);
    const url = new URL(res.location!);
    expect(url.searchParams.get('error')).toBe('invalid_request');
    expect(url.searchParams.get('error_description')).toBe(
      'Strict App requires PKCE: send code_challenge (the base64url SHA-256 of a code_verifier) with code_challenge_method=S256',
    );
    expect(url.searchParams.get('state')).toBe('s');
  });

  it('connects with PKCE: the verifier is needed at the token endpoint', async () => {
    const { app, fixture } = await strictApp();
    const client = await signedInClient(f);
    const { verifier, challenge } = pkcePair();
    let res = await client.get(
      authorizeUrl(app.clientId, { code_challenge: challenge, code_challenge_method: 'S256' }),
    );
    res = await client.post('/oauth2/authenticate', { ...hiddenFields(res.text), decision: 'allow' });
    const code = new URL(res.location!).searchParams.get('code')!;
    expect((await exchange(fixture, { code })).body.error_description).toBe(
      'code_verifier is required for this code',
    );
    expect((await exchange(fixture, { code, code_verifier: verifier })).status).toBe(200);
  });

  it('refuses a code issued without a challenge before the app began to require PKCE', async () => {
    const { app, fixture } = await strictApp();
    await setPkceRequired(f.identity.deps, app.id, f.orgId, false);
    const client = await signedInClient(f);
    let res = await client.get(authorizeUrl(app.clientId));
    res = await client.post('/oauth2/authenticate', { ...hiddenFields(res.text), decision: 'allow' });
    const code = new URL(res.location!).searchParams.get('code')!;
    await setPkceRequired(f.identity.deps, app.id, f.orgId, true);
    const refused = await exchange(fixture, { code });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: 'invalid_grant',
      error_description:
        'Strict App requires PKCE, and this code was issued without a code_challenge; start the authorization again with one',
    });
  });

  it('the default stays the seed flow: no PKCE needed', async () => {
    const client = await signedInClient(f);
    let res = await client.get(authorizeUrl(f.clientId));
    if (res.status === 200)
      res = await client.post('/oauth2/authenticate', { ...hiddenFields(res.text), decision: 'allow' });
    const code = new URL(res.location!).searchParams.get('code')!;
    expect((await exchange(f, { code })).status).toBe(200);
  });

  it('is set at registration and switched in the console, which shows it', async () => {
    const email = await newPerson(f, 'Pia Pkce');
    const client = await signedInClient(f, email);
    await addMember(f.identity.deps, f.orgId, email);
    const org = await client.get(`/console/orgs/${f.orgId}`);
    expect(org.text).toContain('Require PKCE (S256 code_challenge) on every authorization request');
    const created = await client.post(`/console/orgs/${f.orgId}/apps`, {
      ...hiddenFields(org.text),
      name: 'Console Strict',
      redirect_uris: REDIRECT,
      require_pkce: 'yes',
    });
    expect(created.status).toBe(200);
    const row = (page: string) => /<tr><td>Console Strict<\/td>[\s\S]*?<\/tr>/.exec(page)![0];
    expect(row(created.text)).toContain('<td>required');
    const form = /action="(\/console\/orgs\/[^"]+\/apps\/[^"]+\/pkce)"/.exec(row(created.text))![1]!;
    const switched = await client.post(form, { ...hiddenFields(created.text), required: 'no' });
    expect(switched.status).toBe(200);
    expect(row(switched.text)).toContain('<td>optional');
    expect(row(switched.text)).toContain('aria-label="Require PKCE for Console Strict"');
  });
});
