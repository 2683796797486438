import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantInProcess, registerApp, revokeApp, sessionTokenInProcess } from '../src/index.ts';
import {
  authorize,
  newPerson,
  type OAuthFixture,
  PASSWORD,
  REDIRECT,
  sessionToken,
  signedInClient,
  startOAuth,
} from './oauth-fixture.ts';

let f: OAuthFixture;
let app: { clientId: string; clientSecret: string };
beforeAll(async () => {
  f = await startOAuth();
  app = { clientId: f.clientId, clientSecret: f.clientSecret };
});
afterAll(async () => {
  await f.close();
});

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: { status: number; code: string; message: string }) => error,
  );

describe('grantInProcess: the authorization-code flow without a browser', () => {
  it('gives a placemaker token that makes a session token, and records the consent', async () => {
    const email = await newPerson(f);
    const grant = await grantInProcess(f.identity.deps, {
      app,
      person: { email, password: PASSWORD },
      placemaker: true,
    });
    expect(grant).toMatchObject({ token_type: 'Bearer', scope: 'places placemaker', email });
    expect(grant.access_token).toMatch(/^at_[A-Za-z0-9_-]{43}$/);
    expect((await sessionToken(f, grant.access_token)).status).toBe(200);
    // The consent is recorded: the same person in a browser is not asked again.
    const client = await signedInClient(f, email);
    const back = await authorize(client, f, { mode: 'placemaker' });
    expect(back.searchParams.get('code')).toBeTruthy();
  });

  it('without the placemaker permission the token is refused a session token', async () => {
    const grant = await grantInProcess(f.identity.deps, {
      app,
      person: { email: f.email, password: PASSWORD },
    });
    expect(grant.scope).toBe('places');
    expect((await sessionToken(f, grant.access_token)).status).toBe(403);
    const refused = await refusal(sessionTokenInProcess(f.identity.deps, grant.access_token));
    expect(refused.status).toBe(403);
    expect(refused.message).toMatch(/placemaker permission/);
  });

  it('asking for placemaker after a plain consent records the wider consent', async () => {
    const email = await newPerson(f);
    const person = { email, password: PASSWORD };
    await grantInProcess(f.identity.deps, { app, person });
    const wider = await grantInProcess(f.identity.deps, { app, person, placemaker: true });
    expect(wider.scope).toBe('places placemaker');
    const { session_token } = await sessionTokenInProcess(f.identity.deps, wider.access_token);
    expect(session_token).toMatch(/^st_/);
  });

  it('signs up a new person when none is given', async () => {
    const a = await grantInProcess(f.identity.deps, { app });
    const b = await grantInProcess(f.identity.deps, { app });
    expect(a.user_id).not.toBe(b.user_id);
    expect(a.email).toMatch(/@example\.com$/);
  });

  it('makes every check of the flow: password, client secret, registered redirect URI, live app', async () => {
    const person = { email: f.email, password: PASSWORD };
    const wrongPassword = await refusal(
      grantInProcess(f.identity.deps, { app, person: { email: f.email, password: 'not the password' } }),
    );
    expect(wrongPassword).toMatchObject({ status: 401, message: 'sign-in: Wrong email or password' });

    const wrongSecret = await refusal(
      grantInProcess(f.identity.deps, { app: { ...app, clientSecret: `cs_${'x'.repeat(43)}` }, person }),
    );
    expect(wrongSecret).toMatchObject({ status: 401, code: 'invalid_client' });

    const redirect = await refusal(
      grantInProcess(f.identity.deps, {
        app: { ...app, redirectUri: 'https://elsewhere.example.com/callback' },
        person,
      }),
    );
    expect(redirect.status).toBe(400);
    expect(redirect.message).toContain('is not registered for Trailfinder');

    const unknown = await refusal(
      grantInProcess(f.identity.deps, { app: { ...app, clientId: 'X'.repeat(48) }, person }),
    );
    expect(unknown.message).toMatch(/^authorization request: No application has the client_id/);

    const other = await registerApp(f.identity.deps, {
      organizationId: f.orgId,
      name: 'Gone',
      redirectUris: [REDIRECT],
    });
    await revokeApp(f.identity.deps, other.app.id);
    const revoked = await refusal(
      grantInProcess(f.identity.deps, {
        app: { clientId: other.app.clientId, clientSecret: other.clientSecret },
        person,
      }),
    );
    expect(revoked.status).toBe(400);
  });

  it('a session token from a revoked access token is refused', async () => {
    const grant = await grantInProcess(f.identity.deps, { app, placemaker: true });
    await fetch(`${f.baseUrl}/oauth2/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ...{ client_id: f.clientId, client_secret: f.clientSecret },
        token: grant.access_token,
      }),
    });
    const refused = await refusal(sessionTokenInProcess(f.identity.deps, grant.access_token));
    expect(refused.status).toBe(401);
  });
});
