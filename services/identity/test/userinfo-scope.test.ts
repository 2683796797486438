import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callUsersApi } from './helpers.ts';
import {
  authorize,
  exchange,
  type OAuthFixture,
  sessionToken,
  signedInClient,
  startOAuth,
} from './oauth-fixture.ts';

let f: OAuthFixture;
beforeAll(async () => {
  f = await startOAuth();
});
afterAll(async () => {
  await f.close();
});

/** A token through the browser flow (sign-in form, consent page, code exchange over HTTP). */
async function tokenFor(params: Record<string, string> = {}) {
  const client = await signedInClient(f);
  const code = (await authorize(client, f, params)).searchParams.get('code')!;
  return exchange(f, { code });
}

const form = (extra: Record<string, string> = {}) => ({
  'content-type': 'application/x-www-form-urlencoded',
  authorization: `Basic ${Buffer.from(`${f.clientId}:${f.clientSecret}`).toString('base64')}`,
  ...extra,
});

async function introspect(token: string) {
  const res = await fetch(`${f.baseUrl}/oauth2/introspect`, {
    method: 'POST',
    headers: form(),
    body: new URLSearchParams({ token }),
  });
  return (await res.json()) as Record<string, unknown>;
}

async function userinfo(token: string | undefined, method = 'GET') {
  const res = await fetch(`${f.baseUrl}/oauth2/userinfo`, {
    method,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
  return {
    status: res.status,
    challenge: res.headers.get('www-authenticate'),
    cacheControl: res.headers.get('cache-control'),
    body: (await res.json()) as Record<string, unknown>,
  };
}

describe('scope (RFC 6749 §5.1, RFC 7662)', () => {
  it('the token response and introspection say what the person consented to', async () => {
    const plain = await tokenFor();
    expect(plain.body.scope).toBe('places');
    const placemaker = await tokenFor({ mode: 'placemaker' });
    expect(placemaker.body.scope).toBe('places placemaker');

    expect(await introspect(plain.body.access_token!)).toMatchObject({ active: true, scope: 'places' });
    expect(await introspect(placemaker.body.access_token!)).toMatchObject({
      active: true,
      scope: 'places placemaker',
    });
    // The permission the scope shows is the one the session-token call enforces.
    expect((await sessionToken(f, plain.body.access_token!)).status).toBe(403);
    expect((await sessionToken(f, placemaker.body.access_token!)).status).toBe(200);
  });

  it('a revoked token introspects as inactive, with no scope', async () => {
    const { access_token } = (await tokenFor({ mode: 'placemaker' })).body;
    await fetch(`${f.baseUrl}/oauth2/revoke`, {
      method: 'POST',
      headers: form(),
      body: new URLSearchParams({ token: access_token! }),
    });
    expect(await introspect(access_token!)).toEqual({ active: false });
  });
});

describe('GET and POST /oauth2/userinfo', () => {
  it("answers the person's profile to their third-party access token, by GET and by POST", async () => {
    const { access_token } = (await tokenFor()).body;
    for (const method of ['GET', 'POST']) {
      const res = await userinfo(access_token, method);
      expect(res.status).toBe(200);
      expect(res.cacheControl).toBe('no-store');
      expect(res.body.name).toBe('Wanda Walker');
      expect(res.body.sub).toBe(String(res.body.user_id));
      expect(Number.isInteger(res.body.user_id)).toBe(true);
      expect(res.body).not.toHaveProperty('email');
    }
    // The same person as introspection's sub.
    expect((await introspect(access_token!)).sub).toBe((await userinfo(access_token)).body.sub);
  });

  it('refuses a revoked token at once with 401 and error="invalid_token" (RFC 6750 §3.1)', async () => {
    const { access_token } = (await tokenFor()).body;
    expect((await userinfo(access_token)).status).toBe(200);
    await fetch(`${f.baseUrl}/oauth2/revoke`, {
      method: 'POST',
      headers: form(),
      body: new URLSearchParams({ token: access_token! }),
    });
    const res = await userinfo(access_token);
    expect(res.status).toBe(401);
    expect(res.challenge).toMatch(/^Bearer realm="cairn", error="invalid_token", error_description="/);
    expect(res.body).toEqual({
      error: 'invalid_token',
      error_description: 'The access token has been revoked',
    });
  });

  it('refuses unknown tokens, service keys, managed users and session tokens as invalid_token', async () => {
    const managed = await callUsersApi(f.baseUrl, '/users/managed-user/create', { token: f.serviceKey });
    const { access_token } = (await tokenFor({ mode: 'placemaker' })).body;
    const session = (await sessionToken(f, access_token!)).body.session_token!;
    for (const token of [
      `at_${'A'.repeat(43)}`,
      f.serviceKey,
      managed.body.access_token as string,
      session,
    ]) {
      const res = await userinfo(token);
      expect(res.status, token.slice(0, 3)).toBe(401);
      expect(res.challenge).toContain('error="invalid_token"');
      expect(res.body.error).toBe('invalid_token');
    }
  });

  it('without credentials: 401 with a bare challenge (RFC 6750 §3.1); a malformed header is invalid_request', async () => {
    const none = await userinfo(undefined);
    expect(none.status).toBe(401);
    expect(none.challenge).toBe('Bearer realm="cairn"');
    const malformed = await fetch(`${f.baseUrl}/oauth2/userinfo`, { headers: { authorization: 'Token x' } });
    expect(malformed.status).toBe(401);
    expect(malformed.headers.get('www-authenticate')).toContain('error="invalid_request"');
    expect(((await malformed.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('is in the identity OpenAPI document', async () => {
    const doc = (await (await fetch(`${f.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { security?: unknown }>>;
    };
    expect(Object.keys(doc.paths['/oauth2/userinfo'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(doc.paths['/oauth2/userinfo']?.get?.security).toEqual([{ bearer: [] }]);
  });
});
