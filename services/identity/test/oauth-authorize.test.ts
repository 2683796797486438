import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerApp } from '../src/index.ts';
import { FormClient, hiddenFields } from './form-client.ts';
import {
  authorize,
  newPerson,
  type OAuthFixture,
  pkcePair,
  REDIRECT,
  signedInClient,
  startOAuth,
} from './oauth-fixture.ts';

let f: OAuthFixture;
let client: FormClient;
beforeAll(async () => {
  f = await startOAuth();
  client = await signedInClient(f);
});
afterAll(async () => {
  await f.close();
});

const authorizeUrl = (params: Record<string, string>) =>
  `/oauth2/authenticate?${new URLSearchParams(params)}`;

describe('GET /oauth2/authenticate', () => {
  it('sends a person who is not signed in to the sign-in page, then back', async () => {
    const anonymous = new FormClient(f.baseUrl);
    const res = await anonymous.get(
      authorizeUrl({ client_id: f.clientId, response_type: 'code', redirect_uri: REDIRECT, state: 'xyz' }),
    );
    expect(res.status).toBe(303);
    const signin = new URL(res.location!, f.baseUrl);
    expect(signin.pathname).toBe('/account/signin');
    const returnTo = signin.searchParams.get('return_to')!;
    expect(returnTo).toMatch(/^\/oauth2\/authenticate\?/);
    const page = await anonymous.get(`${signin.pathname}${signin.search}`);
    expect(page.text).toContain('<strong>Trailfinder</strong> asks you to sign in');
    const done = await anonymous.post('/account/signin', {
      ...hiddenFields(page.text),
      email: f.email,
      password: 'correct horse battery',
    });
    expect(done.status).toBe(303);
    expect(done.location).toBe(returnTo);
  });

  it('asks for consent, then redirects with a code, the state and iss (RFC 9207)', async () => {
    const fresh = await signedInClient(f, await newPerson(f));
    const first = await fresh.get(
      authorizeUrl({ client_id: f.clientId, response_type: 'code', redirect_uri: REDIRECT, state: 's1' }),
    );
    expect(first.status).toBe(200);
    expect(first.text).toContain('Connect Trailfinder to your account?');
    const redirect = await authorize(fresh, f, { state: 's1' });
    expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT);
    expect(redirect.searchParams.get('code')).toMatch(/^ac_[A-Za-z0-9_-]{43}$/);
    expect(redirect.searchParams.get('state')).toBe('s1');
    expect(redirect.searchParams.get('iss')).toBe(f.deps.config.publicUrl);
  });

  it('remembers consent per person and app', async () => {
    await authorize(client, f, {});
    const again = await client.get(
      authorizeUrl({ client_id: f.clientId, response_type: 'code', redirect_uri: REDIRECT }),
    );
    expect(again.status).toBe(303);
    expect(new URL(again.location!).searchParams.get('code')).toBeTruthy();
  });

  it('asks again when the app now wants the place-editing permissions (mode=placemaker)', async () => {
    const fresh = await signedInClient(f, await newPerson(f));
    await authorize(fresh, f, {});
    const res = await fresh.get(
      authorizeUrl({
        client_id: f.clientId,
        response_type: 'code',
        redirect_uri: REDIRECT,
        mode: 'placemaker',
      }),
    );
    expect(res.status).toBe(200);
    expect(res.text).toContain('Suggest edits to places on your behalf');
    expect(res.text).toContain('Vote on edits that other people suggested');
  });

  it('skips consent for first-party apps', async () => {
    const { app } = await registerApp(f.identity.deps, {
      organizationId: f.orgId,
      name: 'Our own app',
      redirectUris: [REDIRECT],
      firstParty: true,
    });
    const fresh = await signedInClient(f);
    const res = await fresh.get(
      authorizeUrl({ client_id: app.clientId, response_type: 'code', redirect_uri: REDIRECT }),
    );
    expect(res.status).toBe(303);
    expect(new URL(res.location!).searchParams.get('code')).toBeTruthy();
  });

  it('redirects error=access_denied with the state when the person denies (RFC 6749 §4.1.2.1)', async () => {
    const fresh = await signedInClient(f, await newPerson(f));
    const redirect = await authorize(fresh, f, { state: 'deny-me' }, 'deny');
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    expect(redirect.searchParams.get('state')).toBe('deny-me');
    expect(redirect.searchParams.get('iss')).toBe(f.deps.config.publicUrl);
    expect(redirect.searchParams.get('code')).toBeNull();
  });

  it.each([
    [
      { client_id: 'NOPE', response_type: 'code', redirect_uri: REDIRECT },
      'No application has the client_id &quot;NOPE&quot;',
    ],
    [{ response_type: 'code', redirect_uri: REDIRECT }, 'The request has no client_id'],
    [{ client_id: 'OURS', response_type: 'code' }, 'The request has no redirect_uri'],
    [
      { client_id: 'OURS', response_type: 'code', redirect_uri: 'https://evil.example.com/cb' },
      'is not registered for Trailfinder',
    ],
    [
      { client_id: 'OURS', response_type: 'code', redirect_uri: `${REDIRECT}/` },
      'is not registered for Trailfinder',
    ],
    [
      { client_id: 'OURS', response_type: 'code', redirect_uri: `${REDIRECT}?x=1` },
      'is not registered for Trailfinder',
    ],
    [
      { client_id: 'OURS', response_type: 'code', redirect_uri: REDIRECT.toUpperCase() },
      'is not registered for Trailfinder',
    ],
  ])('shows a page and never redirects for a bad client or redirect_uri %#', async (params, message) => {
    const full: Record<string, string> = { ...params };
    if (full.client_id === 'OURS') full.client_id = f.clientId;
    const res = await client.get(authorizeUrl(full));
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain(message);
  });

  it('refuses userinfo in a loopback redirect_uri whose port may vary (issue 14)', async () => {
    const { app } = await registerApp(f.identity.deps, {
      organizationId: f.orgId,
      name: 'Native Tool',
      redirectUris: ['http://127.0.0.1/cb'],
    });
    const ask = (redirect_uri: string) =>
      client.get(authorizeUrl({ client_id: app.clientId, response_type: 'code', redirect_uri }));
    const evil = await ask('http://evil@127.0.0.1:5555/cb');
    expect(evil.status).toBe(400);
    expect(evil.location).toBeNull();
    expect(evil.text).toContain('is not registered for Native Tool');
    expect((await ask('http://127.0.0.1:5555/cb')).status).toBe(200); // the consent page
  });

  it('refuses a repeated redirect_uri on a page', async () => {
    const res = await client.get(
      `/oauth2/authenticate?client_id=${f.clientId}&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT)}&redirect_uri=${encodeURIComponent('https://evil.example.com/')}`,
    );
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
  });

  it.each([
    [{ response_type: 'token' }, 'unsupported_response_type'],
    [{ response_type: '' }, 'invalid_request'],
    [{ code_challenge: pkcePair().challenge, code_challenge_method: 'plain' }, 'invalid_request'],
    [{ code_challenge: pkcePair().challenge }, 'invalid_request'],
    [{ code_challenge: 'short', code_challenge_method: 'S256' }, 'invalid_request'],
    [{ code_challenge_method: 'S256' }, 'invalid_request'],
    [{ mode: 'admin' }, 'invalid_request'],
  ])('redirects other errors to the registered URI with error and state %#', async (params, error) => {
    const res = await client.get(
      authorizeUrl({
        client_id: f.clientId,
        response_type: 'code',
        redirect_uri: REDIRECT,
        state: 'st',
        ...params,
      }),
    );
    expect(res.status).toBe(303);
    const url = new URL(res.location!);
    expect(`${url.origin}${url.pathname}`).toBe(REDIRECT);
    expect(url.searchParams.get('error')).toBe(error);
    expect(url.searchParams.get('error_description')).toBeTruthy();
    expect(url.searchParams.get('state')).toBe('st');
  });

  it('protects its pages against framing and sniffing; frames only by registered embed origins', async () => {
    const plain = await new FormClient(f.baseUrl).get('/account/signin');
    expect(plain.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(plain.headers.get('x-frame-options')).toBe('DENY');
    expect(plain.headers.get('x-content-type-options')).toBe('nosniff');
    expect(plain.headers.get('referrer-policy')).toBe('same-origin'); // our own form posts carry their Origin

    const { app } = await registerApp(f.identity.deps, {
      organizationId: f.orgId,
      name: 'Embedded',
      redirectUris: [REDIRECT],
      embedOrigins: ['https://partner.example.com'],
    });
    const fresh = await signedInClient(f);
    const consent = await fresh.get(
      authorizeUrl({ client_id: app.clientId, response_type: 'code', redirect_uri: REDIRECT }),
    );
    expect(consent.status).toBe(200);
    expect(consent.headers.get('content-security-policy')).toContain(
      'frame-ancestors https://partner.example.com',
    );
    expect(consent.headers.get('x-frame-options')).toBeNull();
  });

  it('refuses the consent form without its CSRF token, or from another site', async () => {
    const fresh = await signedInClient(f, await newPerson(f));
    const page = await fresh.get(
      authorizeUrl({ client_id: f.clientId, response_type: 'code', redirect_uri: REDIRECT }),
    );
    const fields = hiddenFields(page.text);
    const { csrf_token: _, ...withoutCsrf } = fields;
    const missing = await fresh.post('/oauth2/authenticate', { ...withoutCsrf, decision: 'allow' });
    expect(missing.status).toBe(403);
    expect(missing.location).toBeNull();
    const forged = await fresh.post('/oauth2/authenticate', {
      ...fields,
      csrf_token: 'x'.repeat(43),
      decision: 'allow',
    });
    expect(forged.status).toBe(403);
    const crossSite = await fresh.post(
      '/oauth2/authenticate',
      { ...fields, decision: 'allow' },
      { origin: 'https://evil.example.com' },
    );
    expect(crossSite.status).toBe(403);
    expect(crossSite.text).toContain('sent from another site');
    // A valid token does not help a form posted from an opaque origin (sandboxed frame, data: URL).
    const opaque = await fresh.post(
      '/oauth2/authenticate',
      { ...fields, decision: 'allow' },
      { origin: 'null' },
    );
    expect(opaque.status).toBe(403);
    expect(opaque.text).toContain('Origin: null');
    expect(opaque.location).toBeNull();
  });
});
