import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLACEMAKER_CONSENT_MISSING, redeemSessionToken } from '../src/index.ts';
import { callUsersApi } from './helpers.ts';
import {
  authorize,
  exchange,
  newPerson,
  type OAuthFixture,
  sessionToken,
  signedInClient,
  startOAuth,
} from './oauth-fixture.ts';

let f: OAuthFixture;
let accessToken: string;
beforeAll(async () => {
  f = await startOAuth();
  const client = await signedInClient(f);
  const code = (await authorize(client, f, { mode: 'placemaker' })).searchParams.get('code')!;
  accessToken = (await exchange(f, { code })).body.access_token!;
});
afterAll(async () => {
  await f.close();
});

describe('POST {users_url}/auth/session-token', () => {
  it("returns a session token for a third-party user's access token, bound to user and app", async () => {
    const res = await sessionToken(f, accessToken);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['session_token']);
    expect(res.body.session_token).toMatch(/^st_[A-Za-z0-9_-]{43}$/);
    const auth = await f.identity.resolveBearer(accessToken);
    await expect(redeemSessionToken(f.identity.deps, res.body.session_token!)).resolves.toEqual({
      accessTokenId: auth.credentialId,
      userId: auth.userId,
      appId: f.appId,
      organizationId: f.orgId,
    });
  });

  it('is valid for 10 minutes: redeemable at 9:59.999, refused at 10:00', async () => {
    const early = (await sessionToken(f, accessToken)).body.session_token!;
    const late = (await sessionToken(f, accessToken)).body.session_token!;
    f.clock.advance(10 * 60_000 - 1);
    await expect(redeemSessionToken(f.identity.deps, early)).resolves.toBeTruthy();
    f.clock.advance(1);
    await expect(redeemSessionToken(f.identity.deps, late)).rejects.toMatchObject({
      status: 410,
      message: expect.stringContaining('has expired (they are valid for 10 minutes)'),
    });
  });

  it('is usable once', async () => {
    const token = (await sessionToken(f, accessToken)).body.session_token!;
    await redeemSessionToken(f.identity.deps, token);
    await expect(redeemSessionToken(f.identity.deps, token)).rejects.toMatchObject({
      status: 410,
      message: expect.stringContaining('has already been used'),
    });
  });

  it('refuses unknown tokens', async () => {
    await expect(redeemSessionToken(f.identity.deps, 'st_nope')).rejects.toMatchObject({ status: 401 });
    await expect(redeemSessionToken(f.identity.deps, `st_${'A'.repeat(43)}`)).rejects.toMatchObject({
      status: 401,
    });
  });

  it('refuses a service key and a managed user with 403 explaining the third-party flow', async () => {
    const viaKey = await sessionToken(f, f.serviceKey);
    expect(viaKey.status).toBe(403);
    expect(viaKey.body.message).toBe(
      "Session tokens open the embedded place-editing UI, which requires the third-party flow: authenticate with the user's access token from the OAuth code exchange, not a service key",
    );
    const managed = await callUsersApi(f.baseUrl, '/users/managed-user/create', { token: f.serviceKey });
    const viaManaged = await sessionToken(f, managed.body.access_token as string);
    expect(viaManaged.status).toBe(403);
    expect(viaManaged.body.message).toMatch(
      /requires the third-party flow.*not a managed user's access token/,
    );
  });

  it('refuses a token from the default consent (no mode=placemaker) with 403 saying how to ask', async () => {
    const person = await newPerson(f, 'Noel No-Editor');
    const client = await signedInClient(f, person);
    const code = (await authorize(client, f, {})).searchParams.get('code')!;
    const plain = (await exchange(f, { code })).body.access_token!;
    const refused = await sessionToken(f, plain);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(PLACEMAKER_CONSENT_MISSING);
    expect(refused.body.message).toMatch(/without the placemaker permission.*mode=placemaker/);
    // Asking again with mode=placemaker (the person consents to it) gives a token that may open the editor.
    const upgraded = (await authorize(client, f, { mode: 'placemaker' })).searchParams.get('code')!;
    const editor = (await exchange(f, { code: upgraded })).body.access_token!;
    expect((await sessionToken(f, editor)).status).toBe(200);
    // The older token keeps what it was issued with.
    expect((await sessionToken(f, plain)).status).toBe(403);
  });

  it('needs the version header and a bearer like the rest of the users API', async () => {
    expect(
      (await callUsersApi(f.baseUrl, '/auth/session-token', { token: accessToken, version: null })).status,
    ).toBe(400);
    expect((await callUsersApi(f.baseUrl, '/auth/session-token', { token: null })).status).toBe(401);
    expect(
      (await callUsersApi(f.baseUrl, '/auth/session-token', { token: accessToken, method: 'GET' })).status,
    ).toBe(405);
  });
});
