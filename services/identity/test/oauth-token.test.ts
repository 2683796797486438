import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormClient } from './form-client.ts';
import {
  authorize,
  exchange,
  type OAuthFixture,
  pkcePair,
  REDIRECT,
  sessionToken,
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

async function newCode(params: Record<string, string> = {}): Promise<string> {
  return (await authorize(client, f, params)).searchParams.get('code')!;
}

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

describe('the token endpoint, {auth_url}/oauth2/access_token', () => {
  it('exchanges a code the way the seed shows it: GET with query parameters', async () => {
    const code = await newCode();
    const query = new URLSearchParams({
      client_id: f.clientId,
      client_secret: f.clientSecret,
      grant_type: 'authorization_code',
      redirect_uri: REDIRECT,
      code,
    });
    const res = await fetch(`${f.baseUrl}/oauth2/access_token?${query}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as { access_token: string; token_type: string; scope: string };
    expect(Object.keys(body).sort()).toEqual(['access_token', 'scope', 'token_type']);
    expect(body.token_type).toBe('Bearer');
    expect(body.scope).toBe('places');
    expect(body.access_token).toMatch(/^at_[A-Za-z0-9_-]{43}$/);
    const auth = await f.identity.resolveBearer(body.access_token);
    expect(auth).toMatchObject({ kind: 'oauth_user', organizationId: f.orgId, appId: f.appId });
  });

  it('takes a form POST with client_secret_post, and HTTP Basic', async () => {
    expect((await exchange(f, { code: await newCode() })).status).toBe(200);
    const viaBasic = await exchange(
      f,
      { code: await newCode(), client_id: '', client_secret: '' },
      {
        headers: {
          authorization: basic(f.clientId, f.clientSecret),
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          redirect_uri: REDIRECT,
          code: await newCode(),
        }),
      },
    );
    expect(viaBasic.status).toBe(200);
    expect(viaBasic.body.token_type).toBe('Bearer');
  });

  it('refuses a wrong secret with 401 invalid_client, and says Basic in WWW-Authenticate when Basic was used', async () => {
    const wrong = await exchange(f, { code: await newCode(), client_secret: 'cs_wrong' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    const wrongBasic = await fetch(`${f.baseUrl}/oauth2/access_token`, {
      method: 'POST',
      headers: {
        authorization: basic(f.clientId, 'nope'),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        redirect_uri: REDIRECT,
        code: await newCode(),
      }),
    });
    expect(wrongBasic.status).toBe(401);
    expect(wrongBasic.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    expect(((await wrongBasic.json()) as { error: string }).error).toBe('invalid_client');
  });

  it('refuses two client authentication methods at once', async () => {
    const res = await fetch(`${f.baseUrl}/oauth2/access_token`, {
      method: 'POST',
      headers: {
        authorization: basic(f.clientId, f.clientSecret),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        redirect_uri: REDIRECT,
        code: 'x',
        client_secret: f.clientSecret,
      }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('a replayed code fails and revokes every token issued from it (RFC 9700 §4.2.4)', async () => {
    const code = await newCode({ mode: 'placemaker' });
    const first = await exchange(f, { code });
    expect(first.status).toBe(200);
    expect((await sessionToken(f, first.body.access_token!)).status).toBe(200);
    const second = await exchange(f, { code });
    expect(second.status).toBe(400);
    expect(second.body).toEqual({
      error: 'invalid_grant',
      error_description:
        'The authorization code was already used; the access tokens issued from it have been revoked',
    });
    const refused = await sessionToken(f, first.body.access_token!);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('Invalid request token. This access token has been revoked.');
  });

  it('two concurrent exchanges of one code: exactly one succeeds', async () => {
    const code = await newCode();
    const results = await Promise.all([exchange(f, { code }), exchange(f, { code }), exchange(f, { code })]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.body.error === 'invalid_grant')).toHaveLength(2);
  });

  it('a code expires 10 minutes after it is issued', async () => {
    const fresh = await newCode();
    f.clock.advance(10 * 60_000 - 1);
    expect((await exchange(f, { code: fresh })).status).toBe(200);
    const stale = await newCode();
    f.clock.advance(10 * 60_000);
    const res = await exchange(f, { code: stale });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'invalid_grant',
      error_description: 'The authorization code has expired',
    });
  });

  it('checks redirect_uri against the authorization request', async () => {
    const missing = await exchange(f, { code: await newCode(), redirect_uri: '' });
    expect(missing.body.error).toBe('invalid_grant');
    const other = await exchange(f, { code: await newCode(), redirect_uri: 'https://app.example.com/other' });
    expect(other.body).toEqual({
      error: 'invalid_grant',
      error_description: 'redirect_uri does not match the one of the authorization request',
    });
  });

  it('a failed exchange does not spend the code; "already used" is said only after a token was issued', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await newCode({ code_challenge: challenge, code_challenge_method: 'S256' });
    const wrongUri = await exchange(f, {
      code,
      redirect_uri: 'https://app.example.com/other',
      code_verifier: verifier,
    });
    expect(wrongUri.body.error_description).toBe(
      'redirect_uri does not match the one of the authorization request',
    );
    const wrongVerifier = await exchange(f, { code, code_verifier: pkcePair().verifier });
    expect(wrongVerifier.body.error_description).toBe('code_verifier does not match the code_challenge');
    const right = await exchange(f, { code, code_verifier: verifier });
    expect(right.status).toBe(200);
    const replay = await exchange(f, { code, code_verifier: verifier });
    expect(replay.body.error_description).toBe(
      'The authorization code was already used; the access tokens issued from it have been revoked',
    );
    await expect(f.identity.resolveBearer(right.body.access_token!)).rejects.toMatchObject({ status: 401 });
  });

  it('enforces PKCE: the right verifier works; a wrong or missing one fails', async () => {
    const { verifier, challenge } = pkcePair();
    const params = { code_challenge: challenge, code_challenge_method: 'S256' };
    expect((await exchange(f, { code: await newCode(params), code_verifier: verifier })).status).toBe(200);
    const wrong = await exchange(f, { code: await newCode(params), code_verifier: pkcePair().verifier });
    expect(wrong.body).toEqual({
      error: 'invalid_grant',
      error_description: 'code_verifier does not match the code_challenge',
    });
    const missing = await exchange(f, { code: await newCode(params) });
    expect(missing.body).toEqual({
      error: 'invalid_grant',
      error_description: 'code_verifier is required for this code',
    });
  });

  it('refuses a code_verifier for a code issued without a challenge (PKCE downgrade, RFC 9700 §2.1.1)', async () => {
    const res = await exchange(f, { code: await newCode(), code_verifier: pkcePair().verifier });
    expect(res.body).toEqual({
      error: 'invalid_grant',
      error_description: 'code_verifier was sent but the authorization request had no code_challenge',
    });
  });

  it.each([
    [{ grant_type: '' }, 400, 'invalid_request'],
    [{ grant_type: 'password' }, 400, 'unsupported_grant_type'],
    [{ grant_type: 'client_credentials' }, 400, 'unsupported_grant_type'],
    [{ code: '' }, 400, 'invalid_request'],
    [{ code: 'ac_forged' }, 400, 'invalid_grant'],
    [{ client_id: '' }, 401, 'invalid_client'],
    [{ client_id: 'UNKNOWN' }, 401, 'invalid_client'],
  ])('answers %j with an RFC 6749 §5.2 error', async (params, status, error) => {
    const clean = Object.fromEntries(Object.entries({ code: 'ac_x', ...params }).filter(([, v]) => v !== ''));
    const body = new URLSearchParams({
      client_id: f.clientId,
      client_secret: f.clientSecret,
      grant_type: 'authorization_code',
      redirect_uri: REDIRECT,
      ...clean,
    });
    for (const [k, v] of Object.entries(params)) if (v === '') body.delete(k);
    const res = await fetch(`${f.baseUrl}/oauth2/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(res.status).toBe(status);
    const json = (await res.json()) as { error: string; error_description: string };
    expect(json.error).toBe(error);
    expect(json.error_description.length).toBeGreaterThan(0);
  });

  it('never logs the client secret, the code or the token', async () => {
    const code = await newCode();
    const query = new URLSearchParams({
      client_id: f.clientId,
      client_secret: f.clientSecret,
      grant_type: 'authorization_code',
      redirect_uri: REDIRECT,
      code,
    });
    const token = (
      (await (await fetch(`${f.baseUrl}/oauth2/access_token?${query}`)).json()) as { access_token: string }
    ).access_token;
    await sessionToken(f, token);
    const logs = f.deps.logLines.join('');
    expect(logs).toContain('/oauth2/access_token');
    for (const secret of [f.clientSecret, code, token]) expect(logs).not.toContain(secret);
  });
});

describe('revocation (RFC 7009), introspection (RFC 7662) and metadata (RFC 8414)', () => {
  it('introspects the client’s own live token and nothing else; revokes it', async () => {
    const { access_token } = (await exchange(f, { code: await newCode() })).body as { access_token: string };
    const auth = {
      authorization: basic(f.clientId, f.clientSecret),
      'content-type': 'application/x-www-form-urlencoded',
    };
    const live = await fetch(`${f.baseUrl}/oauth2/introspect`, {
      method: 'POST',
      headers: auth,
      body: `token=${access_token}`,
    });
    const info = (await live.json()) as Record<string, unknown>;
    expect(info).toMatchObject({
      active: true,
      client_id: f.clientId,
      token_type: 'Bearer',
      scope: 'places',
      iss: f.deps.config.publicUrl,
    });
    expect(typeof info.sub).toBe('string');

    const revoke = await fetch(`${f.baseUrl}/oauth2/revoke`, {
      method: 'POST',
      headers: auth,
      body: `token=${access_token}`,
    });
    expect(revoke.status).toBe(200);
    const after = await fetch(`${f.baseUrl}/oauth2/introspect`, {
      method: 'POST',
      headers: auth,
      body: `token=${access_token}`,
    });
    expect(await after.json()).toEqual({ active: false });
    expect((await sessionToken(f, access_token)).status).toBe(401);

    const unknown = await fetch(`${f.baseUrl}/oauth2/revoke`, {
      method: 'POST',
      headers: auth,
      body: 'token=at_unknown',
    });
    expect(unknown.status).toBe(200);
    const noAuth = await fetch(`${f.baseUrl}/oauth2/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${access_token}`,
    });
    expect(noAuth.status).toBe(401);
  });

  it('publishes authorization server metadata', async () => {
    const meta = (await (
      await fetch(`${f.baseUrl}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, unknown>;
    const issuer = f.deps.config.publicUrl;
    expect(meta).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/oauth2/authenticate`,
      token_endpoint: `${issuer}/oauth2/access_token`,
      revocation_endpoint: `${issuer}/oauth2/revoke`,
      introspection_endpoint: `${issuer}/oauth2/introspect`,
      userinfo_endpoint: `${issuer}/oauth2/userinfo`,
      scopes_supported: ['places', 'placemaker'],
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      authorization_response_iss_parameter_supported: true,
    });
  });
});
