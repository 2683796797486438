import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createSessionToken, redeemSessionToken } from '../src/index.ts';
import { FormClient, hiddenFields } from './form-client.ts';
import {
  authorize,
  exchange,
  newPerson,
  type OAuthFixture,
  PASSWORD,
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

async function signInAttempt(client: FormClient, email: string, password: string) {
  const page = await client.get('/account/signin');
  return client.post('/account/signin', { ...hiddenFields(page.text), email, password });
}

describe('accounts', () => {
  it('signs up through the page, with a session cookie that is HttpOnly and SameSite=Lax', async () => {
    const client = new FormClient(f.baseUrl);
    const page = await client.get('/account/signup?return_to=%2Faccount%2Fapps');
    const res = await fetch(`${f.baseUrl}/account/signup`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `cairn_csrf=${client.cookies.get('cairn_csrf')}`,
      },
      body: new URLSearchParams({
        ...hiddenFields(page.text),
        display_name: 'Sam Signup',
        email: 'Sam@Example.com',
        password: 'a long enough password',
      }),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/account/apps');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('cairn_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/); // served over http here; Secure when PUBLIC_URL is https
  });

  it.each([
    [{ email: 'not-an-email' }, 'Enter a valid email address'],
    [{ password: 'short' }, 'Choose a password of 10 to 256 characters'],
    [{ display_name: '' }, 'Enter a name of 1 to 100 characters'],
  ])('says what is wrong with a sign-up form %j', async (change, message) => {
    const client = new FormClient(f.baseUrl);
    const page = await client.get('/account/signup');
    const res = await client.post('/account/signup', {
      ...hiddenFields(page.text),
      display_name: 'Val',
      email: 'val@example.com',
      password: 'valid password 1',
      ...change,
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain(message);
  });

  it('refuses a second account for the same email with 409', async () => {
    const client = new FormClient(f.baseUrl);
    const page = await client.get('/account/signup');
    const res = await client.post('/account/signup', {
      ...hiddenFields(page.text),
      display_name: 'Dup',
      email: f.email.toUpperCase(),
      password: 'another password',
    });
    expect(res.status).toBe(409);
    expect(res.text).toContain('An account with this email already exists');
  });

  it('refuses forms without the CSRF token', async () => {
    const client = new FormClient(f.baseUrl);
    await client.get('/account/signin');
    const res = await client.post('/account/signin', { email: f.email, password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.text).toContain('This form has expired');
    expect(client.cookies.has('cairn_session')).toBe(false);
  });

  it('throttles failed sign-ins: after 5 failures even the right password waits 15 minutes', async () => {
    const email = await newPerson(f);
    const client = new FormClient(f.baseUrl);
    for (let i = 0; i < 5; i++) {
      const wrong = await signInAttempt(client, email, 'wrong password!');
      expect(wrong.status).toBe(401);
      expect(wrong.text).toContain('Wrong email or password');
    }
    const locked = await signInAttempt(client, email, PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBe('900');
    expect(locked.text).toContain('Too many failed sign-ins. Try again in 15 minutes.');
    f.clock.advance(15 * 60_000 + 1);
    expect((await signInAttempt(client, email, PASSWORD)).status).toBe(303);
  });

  it('never redirects off-site after sign-in', async () => {
    const client = new FormClient(f.baseUrl);
    const page = await client.get('/account/signin?return_to=https%3A%2F%2Fevil.example.com');
    const res = await client.post('/account/signin', {
      ...hiddenFields(page.text),
      email: f.email,
      password: PASSWORD,
    });
    expect(res.location).toBe('/account/apps');
    const page2 = await client.get('/account/signin?return_to=%2F%2Fevil.example.com');
    const res2 = await client.post('/account/signin', {
      ...hiddenFields(page2.text),
      email: f.email,
      password: PASSWORD,
    });
    expect(res2.location).toBe('/account/apps');
  });

  it.each(['%2F%09%2Fevil.example%2Fpwned', '%2F%09%5Cevil.example', '%2F..%2F%2Fevil.example'])(
    'refuses the return address %s after sign-in and after sign-up (browsers would leave the site)',
    async (returnTo) => {
      const client = new FormClient(f.baseUrl);
      const page = await client.get(`/account/signin?return_to=${returnTo}`);
      expect(hiddenFields(page.text).return_to).toBe('/account/apps');
      const signIn = await client.post('/account/signin', {
        ...hiddenFields(page.text),
        return_to: decodeURIComponent(returnTo),
        email: f.email,
        password: PASSWORD,
      });
      expect(signIn.location).toBe('/account/apps');
      const signUp = await client.post('/account/signup', {
        ...hiddenFields(page.text),
        return_to: decodeURIComponent(returnTo),
        display_name: 'Tab Tester',
        email: `tab-${returnTo.length}@example.com`,
        password: 'a long enough password',
      });
      expect(signUp.status).toBe(303);
      expect(signUp.location).toBe('/account/apps');
    },
  );

  it('signs out', async () => {
    const client = await signedInClient(f);
    const apps = await client.get('/account/apps');
    expect(apps.status).toBe(200);
    await client.post('/account/signout', hiddenFields(apps.text));
    expect((await client.get('/account/apps')).status).toBe(303);
  });
});

describe('Connected apps', () => {
  it('lists the apps holding a token, and disconnecting one revokes its tokens and sessions at once', async () => {
    const email = await newPerson(f, 'Dana Disconnect');
    const client = await signedInClient(f, email);
    const code = (await authorize(client, f, { mode: 'placemaker' })).searchParams.get('code')!;
    const token = (await exchange(f, { code })).body.access_token!;
    const pending = (await sessionToken(f, token)).body.session_token!;
    await f.identity.resolveBearer(token); // cached

    const page = await client.get('/account/apps');
    expect(page.text).toContain('Trailfinder');
    const form = /<form method="post" action="(\/account\/apps\/[^"]+\/disconnect)">/.exec(page.text)!;
    const res = await client.post(form[1]!, hiddenFields(page.text));
    expect(res.status).toBe(303);
    const after = await client.get(res.location!);
    expect(after.text).toContain('Disconnected Trailfinder');
    expect(after.text).toContain('No application holds access to your account.');

    await expect(f.identity.resolveBearer(token)).rejects.toMatchObject({ status: 401 });
    expect((await sessionToken(f, token)).status).toBe(401);
    await expect(redeemSessionToken(f.identity.deps, pending)).rejects.toMatchObject({ status: 410 });
    // consent is forgotten too: the next authorization asks again
    const again = await client.get(
      `/oauth2/authenticate?${new URLSearchParams({ client_id: f.clientId, response_type: 'code', redirect_uri: 'https://app.example.com/callback' })}`,
    );
    expect(again.status).toBe(200);
    expect(again.text).toContain('Connect Trailfinder');
  });
});

describe('the developer console', () => {
  it('lets a member create and revoke service keys and apps, showing secrets once', async () => {
    const email = await newPerson(f, 'Devi Developer');
    const client = await signedInClient(f, email);
    const forbidden = await client.get(`/console/orgs/${f.orgId}`);
    expect(forbidden.status).toBe(403);
    await addMember(f.identity.deps, f.orgId, email);

    const home = await client.get('/console');
    expect(home.text).toContain(`/console/orgs/${f.orgId}`);
    const org = await client.get(`/console/orgs/${f.orgId}`);
    const created = await client.post(`/console/orgs/${f.orgId}/keys`, {
      ...hiddenFields(org.text),
      name: 'from console',
    });
    expect(created.status).toBe(200);
    const key = /data-secret="Service key">(svk_[A-Za-z0-9_-]{43})</.exec(created.text)![1]!;
    expect(await f.identity.resolveBearer(key)).toMatchObject({
      kind: 'service_key',
      organizationId: f.orgId,
    });
    const reload = await client.get(`/console/orgs/${f.orgId}`);
    expect(reload.text).not.toContain(key);

    const keyRow = await f.identity.deps.db.query<{ id: string }>(
      "SELECT id FROM service_keys WHERE name = 'from console'",
    );
    const keyId = keyRow.rows[0]!.id;
    expect(reload.text).toContain(`action="/console/orgs/${f.orgId}/keys/${keyId}/revoke"`);
    const revoked = await client.post(
      `/console/orgs/${f.orgId}/keys/${keyId}/revoke`,
      hiddenFields(reload.text),
    );
    expect(revoked.status).toBe(200);
    await expect(f.identity.resolveBearer(key)).rejects.toMatchObject({ status: 401 });

    const appCreated = await client.post(`/console/orgs/${f.orgId}/apps`, {
      ...hiddenFields(reload.text),
      name: 'Console app',
      redirect_uris: 'https://console.example.com/cb\nhttp://localhost:3000/cb',
      embed_origins: '',
    });
    expect(appCreated.status).toBe(200);
    expect(appCreated.text).toMatch(/data-secret="client_id">[A-Z0-9]{48}</);
    expect(appCreated.text).toMatch(/data-secret="client_secret">cs_[A-Za-z0-9_-]{43}</);

    const badApp = await client.post(`/console/orgs/${f.orgId}/apps`, {
      ...hiddenFields(reload.text),
      name: 'Insecure',
      redirect_uris: 'http://insecure.example.com/cb',
    });
    expect(badApp.status).toBe(400);
    expect(badApp.text).toContain('must use https');
  });

  it('createSessionToken refuses non-OAuth contexts (unit)', async () => {
    await expect(
      createSessionToken(f.identity.deps, {
        kind: 'service_key',
        organizationId: f.orgId,
        credentialId: 'x',
      }),
    ).rejects.toMatchObject({ status: 403 });
  });
});
