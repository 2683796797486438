import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, REDIRECT, type SandboxFixture, startSandbox, USERS_API } from './sandbox-fixture.ts';

// A person's credentials from the sandbox (sandbox.credentials, the handle of cairn/testing, and the
// /_cairn/ controls), each used on the real API: places search, the users API's session-token call, the
// editor, userinfo. Runs on PGlite and, with DATABASE_URL, on PostgreSQL.
let f: SandboxFixture;
let app: { clientId: string; clientSecret: string };
let person: { email: string; password: string };
beforeAll(async () => {
  f = await startSandbox();
  app = { clientId: f.clientId, clientSecret: f.clientSecret };
  person = { email: f.email, password: PASSWORD };
}, 300_000);
afterAll(async () => {
  await f?.close();
});

const search = (token: string) =>
  fetch(`${f.baseUrl}/places/search?query=cafe&limit=1`, {
    headers: { authorization: `Bearer ${token}`, 'x-places-api-version': '2025-06-17' },
  });
const askSessionToken = (token: string) =>
  fetch(`${f.baseUrl}/auth/session-token`, {
    method: 'POST',
    headers: { ...USERS_API, authorization: `Bearer ${token}` },
  });
/** The editor's address as the test's server has it (the sandbox writes its PUBLIC_URL's). */
const openEditor = (editorUrl: string) => {
  const url = new URL(editorUrl);
  return fetch(`${f.baseUrl}${url.pathname}${url.search}`, { redirect: 'manual' });
};

describe('sandbox.credentials (cairn/testing: userAccessToken, sessionToken)', () => {
  it("a person's access token works on the places API and userinfo, attributed to them", async () => {
    const token = await f.sandbox.credentials.userAccessToken({ app, person });
    expect(token.accessToken).toMatch(/^at_[A-Za-z0-9_-]{43}$/);
    expect(token.scope).toBe('places');
    expect((await search(token.accessToken)).status).toBe(200);
    const [call] = f.sandbox.requests.list({ path: '/places/search' }).slice(-1);
    expect(call?.attribution).toMatchObject({ kind: 'oauth_user', userId: token.userId });
    const info = await fetch(`${f.baseUrl}/oauth2/userinfo`, {
      headers: { authorization: `Bearer ${token.accessToken}` },
    });
    expect(await info.json()).toMatchObject({ sub: String(token.userId), name: 'Wanda Walker' });
  });

  it('a token without the placemaker permission is refused where placemaker is required', async () => {
    const plain = await f.sandbox.credentials.userAccessToken({ app, person });
    expect((await askSessionToken(plain.accessToken)).status).toBe(403);
    await expect(f.sandbox.credentials.sessionToken({ accessToken: plain.accessToken })).rejects.toThrow(
      /placemaker permission/,
    );
  });

  it('a placemaker token makes a session token that opens the editor, once, for 10 minutes', async () => {
    const placemaker = await f.sandbox.credentials.userAccessToken({ app, person, placemaker: true });
    expect(placemaker.scope).toBe('places placemaker');
    const session = await f.sandbox.credentials.sessionToken({ accessToken: placemaker.accessToken });
    expect(session.sessionToken).toMatch(/^st_/);
    expect(session.userId).toBe(placemaker.userId);
    expect((await openEditor(session.editorUrl)).status).toBe(303);
    expect((await openEditor(session.editorUrl)).status).toBe(410);

    const fresh = await f.sandbox.credentials.sessionToken({ app, person });
    f.sandbox.clock.advance('10m1s');
    const expired = await openEditor(fresh.editorUrl);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toMatch(/expired/);
    await f.sandbox.reset();
  });

  it('makes the checks of the flow: a wrong password, secret or redirect URI is refused, naming the step', async () => {
    await expect(
      f.sandbox.credentials.userAccessToken({ app, person: { ...person, password: 'not the one 123' } }),
    ).rejects.toThrow('sign-in: Wrong email or password');
    await expect(
      f.sandbox.credentials.userAccessToken({
        app: { ...app, clientSecret: `cs_${'x'.repeat(43)}` },
        person,
      }),
    ).rejects.toMatchObject({ status: 401, code: 'invalid_client' });
    await expect(
      f.sandbox.credentials.userAccessToken({
        app: { ...app, redirectUri: 'https://evil.example.com/cb' },
        person,
      }),
    ).rejects.toThrow(/authorization request: The redirect_uri .* is not registered/);
    // A registered one is taken.
    const ok = await f.sandbox.credentials.userAccessToken({
      app: { ...app, redirectUri: REDIRECT },
      person,
    });
    expect(ok.accessToken).toMatch(/^at_/);
  });
});

describe('POST /_cairn/user-access-token and /_cairn/session-token', () => {
  it('hand out an access token and a session token that open the real API and the editor', async () => {
    const made = await f.control('POST', '/user-access-token', {
      client_id: f.clientId,
      client_secret: f.clientSecret,
      email: f.email,
      password: PASSWORD,
      placemaker: true,
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ token_type: 'Bearer', scope: 'places placemaker', email: f.email });
    const accessToken = made.body.access_token as string;
    expect((await search(accessToken)).status).toBe(200);

    const session = await f.control('POST', '/session-token', { access_token: accessToken });
    expect(session.status).toBe(201);
    expect(session.body.access_token).toBe(accessToken);
    expect((await openEditor(session.body.editor_url as string)).status).toBe(303);

    // Without a person: a new one signs up.
    const fresh = await f.control('POST', '/session-token', {
      client_id: f.clientId,
      client_secret: f.clientSecret,
    });
    expect(fresh.status).toBe(201);
    expect(fresh.body.user_id).not.toBe(made.body.user_id);
    expect((await openEditor(fresh.body.editor_url as string)).status).toBe(303);
  });

  it('take only the bootstrap key, and name what is wrong in the body', async () => {
    const body = { client_id: f.clientId, client_secret: f.clientSecret };
    expect((await f.control('POST', '/user-access-token', body, f.otherKey)).status).toBe(401);
    expect((await f.control('POST', '/user-access-token', body, null)).status).toBe(401);

    const missing = await f.control('POST', '/user-access-token', { client_secret: f.clientSecret });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/"client_id" is required/);
    const half = await f.control('POST', '/user-access-token', { ...body, email: f.email });
    expect(half.status).toBe(400);
    expect(half.body.message).toMatch(/"email" and "password" together/);
    const flag = await f.control('POST', '/user-access-token', { ...body, placemaker: 'yes' });
    expect(flag.status).toBe(400);
    const both = await f.control('POST', '/session-token', { ...body, access_token: `at_${'A'.repeat(43)}` });
    expect(both.status).toBe(400);

    const wrong = await f.control('POST', '/user-access-token', {
      ...body,
      email: f.email,
      password: 'nope nope 1',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('sign-in: Wrong email or password');
    const plain = await f.control('POST', '/user-access-token', body);
    const refused = await f.control('POST', '/session-token', { access_token: plain.body.access_token });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/placemaker permission/);
  });
});
