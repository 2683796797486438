import {
  createIdentity,
  createOrganization,
  createSessionToken,
  disconnectApp,
  type Identity,
  identityMigrations,
  openEditorSession,
  PLACEMAKER_CONSENT_MISSING,
  registerApp,
  signUp,
} from '@cairn/identity';
import { notFound } from '@cairn/kit';
import { createTestDeps, serveOnLoopback, type TestDeps } from '@cairn/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlacemakers, type PlacemakersBackend } from '../src/index.ts';

/** The session tests never reach the places service; a backend that says so keeps that visible. */
const absent = async (): Promise<never> => {
  throw notFound('no places in this test');
};
const noPlaces: PlacemakersBackend = {
  search: absent,
  place: absent,
  history: absent,
  tips: absent,
  suggest: absent,
  suggestPlace: absent,
  status: absent,
  review: absent,
  vote: absent,
  accuracy: absent,
};

let deps: TestDeps;
let identity: Identity;
let baseUrl: string;
let close: () => Promise<void>;
let appId: string;
let userId: number;
let orgId: string;

async function newSessionToken(): Promise<string> {
  const { session_token } = await createSessionToken(identity.deps, {
    kind: 'oauth_user',
    organizationId: orgId,
    appId,
    userId,
    credentialId: await accessTokenId(),
  });
  return session_token;
}

/** A live third-party access token row for the user and app (as the code exchange makes). */
async function accessTokenId(placemaker = true): Promise<string> {
  const { rows } = await deps.db.query<{ id: string }>(
    `INSERT INTO access_tokens (id, token_hash, kind, user_id, organization_id, app_id, created_at, placemaker)
     VALUES (gen_random_uuid(), md5(random()::text), 'oauth_user', $1, $2, $3, now(), $4) RETURNING id`,
    [userId, orgId, appId, placemaker],
  );
  return rows[0]!.id;
}

beforeAll(async () => {
  deps = await createTestDeps(identityMigrations, {});
  identity = createIdentity(deps);
  const placemakers = createPlacemakers(identity.deps, noPlaces, deps.config.publicUrl);
  await placemakers.start();
  const server = await serveOnLoopback(deps, [identity.module, placemakers.module]);
  baseUrl = server.baseUrl;
  close = server.close;
  const org = await createOrganization(identity.deps, 'Mapmakers Inc');
  orgId = org.id;
  const { app } = await registerApp(identity.deps, {
    organizationId: org.id,
    name: 'Trail Guide',
    redirectUris: ['https://trail.example.com/cb'],
    embedOrigins: ['https://trail.example.com'],
  });
  appId = app.id;
  userId = (
    await signUp(identity.deps, {
      email: 'ed@example.com',
      displayName: 'Ed Itor',
      password: 'editing places 1',
    })
  ).userId;
});
afterAll(async () => {
  await close();
  await deps.db.close();
});

const open = (path: string, cookie?: string) =>
  fetch(`${baseUrl}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });

function editorCookie(response: Response): string {
  const line = response.headers.getSetCookie().find((c) => c.startsWith('cairn_editor='))!;
  return line.split(';')[0]!;
}

describe('/placemakers/home?session_token=…', () => {
  it('redeems the token once, sets the editor session and redirects to a clean URL', async () => {
    const token = await newSessionToken();
    const res = await open(`/placemakers/home?session_token=${token}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/placemakers/');
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('cairn_editor='))!;
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/Path=\/placemakers/);
    const cookie = editorCookie(res);

    const page = await open('/placemakers/', cookie);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="app"></div>');
    expect(page.headers.get('content-security-policy')).toContain(
      'frame-ancestors https://trail.example.com',
    );
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");

    const me = await open('/placemakers/api/me', cookie);
    expect(await me.json()).toEqual({
      user: { user_id: userId, display_name: 'Ed Itor' },
      app: { name: 'Trail Guide', organization: 'Mapmakers Inc' },
    });

    const again = await open(`/placemakers/home?session_token=${token}`);
    expect(again.status).toBe(410);
    expect(again.headers.getSetCookie()).toEqual([]);
    expect(await again.text()).toContain('has already been used');
  });

  it('shows a page saying so for an expired, unknown or missing token, and opens no session', async () => {
    const token = await newSessionToken();
    (deps.clock as import('@cairn/kit').FakeClock).advance(10 * 60_000);
    const expired = await open(`/placemakers/home?session_token=${token}`);
    expect(expired.status).toBe(410);
    const text = await expired.text();
    expect(text).toContain('This link has expired');
    expect(text).toContain('valid for 10 minutes');
    expect(expired.headers.getSetCookie()).toEqual([]);

    const unknown = await open(`/placemakers/home?session_token=st_${'x'.repeat(43)}`);
    expect(unknown.status).toBe(401);
    expect(await unknown.text()).toContain('This link does not work');
    expect((await open('/placemakers/home')).status).toBe(400);
  });

  it('refuses the app and its API without a session', async () => {
    const page = await open('/placemakers/');
    expect(page.status).toBe(401);
    expect(await page.text()).toContain('Open the editor from your app');
    const me = await open('/placemakers/api/me');
    expect(me.status).toBe(401);
    expect(await me.json()).toEqual({
      message: 'Your editor session has ended; open the editor from your app again',
    });
  });

  it('serves the built assets', async () => {
    const cookie = editorCookie(await open(`/placemakers/home?session_token=${await newSessionToken()}`));
    const html = await (await open('/placemakers/', cookie)).text();
    const script = /src="(\/placemakers\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const asset = await open(script);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it('writes need the placemaker permission, checked on every write', async () => {
    const write = (cookie: string) =>
      fetch(`${baseUrl}/placemakers/api/suggest/place`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'x-requested-with': 'cairn-editor' },
        body: JSON.stringify({ name: 'Corner Cafe' }),
      });
    // No session token from a token of the default consent…
    const plainToken = await accessTokenId(false);
    const auth = {
      kind: 'oauth_user' as const,
      organizationId: orgId,
      appId,
      userId,
      credentialId: plainToken,
    };
    await expect(createSessionToken(identity.deps, auth)).rejects.toMatchObject({
      status: 403,
      message: PLACEMAKER_CONSENT_MISSING,
    });
    // …and an editor session that came from one (opened before this check existed) can read but not write.
    const opened = await openEditorSession(identity.deps, {
      accessTokenId: plainToken,
      userId,
      appId,
      organizationId: orgId,
    });
    const plain = `cairn_editor=${opened.cookie}`;
    expect((await open('/placemakers/api/me', plain)).status).toBe(200);
    const refused = await write(plain);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /does not include the placemaker permission.*mode=placemaker/,
    );
    // A placemaker session reaches the places backend (which has no places in this test).
    const editor = editorCookie(await open(`/placemakers/home?session_token=${await newSessionToken()}`));
    expect((await write(editor)).status).toBe(404);
    // Text the database can't store is refused before the backend, naming the field for the form.
    const nul = await fetch(`${baseUrl}/placemakers/api/suggest/place`, {
      method: 'POST',
      headers: { cookie: editor, 'content-type': 'application/json', 'x-requested-with': 'cairn-editor' },
      body: '{"name":"Caf\\u0000e"}',
    });
    expect(nul.status).toBe(400);
    expect(await nul.json()).toEqual({
      message: 'Body field name contains a NUL character (U+0000) at character 4; text cannot contain it',
      parameter: 'name',
    });
  });

  it('ends the editor session when the person disconnects the app', async () => {
    const cookie = editorCookie(await open(`/placemakers/home?session_token=${await newSessionToken()}`));
    expect((await open('/placemakers/api/me', cookie)).status).toBe(200);
    await disconnectApp(identity.deps, userId, appId);
    expect((await open('/placemakers/api/me', cookie)).status).toBe(401);
  });
});
