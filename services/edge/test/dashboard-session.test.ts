import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THROTTLE } from '../src/dashboard/service.ts';
import { createDashboardUser, listApiTokens, resetDashboardPassword, revokeApiToken } from '../src/index.ts';
import { type Answer, call, type EdgeFixture, startEdge } from './helpers.ts';
import { freshZone, migrationPaths, upgradeWithConfig } from './migration-helpers.ts';

/** The dashboard's sign-in, as its app uses it: a JSON call, then a cookie plus X-Cairn-Dashboard on the API. */
describe('dashboard sessions', () => {
  let f: EdgeFixture;
  const password = 'correct horse battery';

  beforeAll(async () => {
    f = await startEdge();
    await createDashboardUser(f.edge.deps, {
      accountId: f.accountId,
      email: 'Ops@Example.com',
      name: 'Olga Ops',
      password,
    });
  });
  afterAll(() => f.close());

  async function signIn(body: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${f.baseUrl}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('cairn_dashboard='));
    return { status: response.status, body: (await response.json()) as Answer['body'], cookie, response };
  }

  /** An API call with the session cookie (and the CSRF header unless told otherwise). */
  function asDashboard(cookie: string, csrf: string | null) {
    const value = cookie.split(';')[0]!;
    return (method: string, path: string, body?: unknown) =>
      call(f, method, path, {
        token: null,
        headers: { cookie: value, ...(csrf === null ? {} : { 'x-cairn-dashboard': csrf }) },
        ...(body === undefined ? {} : { body }),
      });
  }

  it('a person signs in with email and password; the cookie is HttpOnly, SameSite=Strict, for every path', async () => {
    const answer = await signIn({ email: 'ops@example.com', password });
    expect(answer.status).toBe(200);
    expect(answer.cookie).toMatch(/^cairn_dashboard=bs_[A-Za-z0-9_-]{43}; /);
    expect(answer.cookie).toMatch(/HttpOnly/);
    expect(answer.cookie).toMatch(/SameSite=Strict/);
    expect(answer.cookie).toMatch(/Path=\//);
    expect(answer.response.headers.get('cache-control')).toBe('no-store');
    const result = answer.body.result as { actor: unknown; account: { id: string }; csrf: string };
    expect(result.actor).toEqual({ type: 'user', id: expect.any(String), name: 'ops@example.com' });
    expect(result.account.id).toBe(f.accountId);

    const api = asDashboard(answer.cookie!, result.csrf);
    const zones = await api('GET', '/zones');
    expect(zones.status).toBe(200);
    expect((zones.body.result as unknown[]).length).toBe(4);
  });

  it('the cookie alone is refused (another site could make the browser send it): 403 naming the header', async () => {
    const answer = await signIn({ email: 'ops@example.com', password });
    const api = asDashboard(answer.cookie!, null);
    const zones = await api('GET', '/zones');
    expect(zones.status).toBe(403);
    expect(zones.body.errors[0]).toMatchObject({
      code: 10000,
      message: expect.stringContaining('x-cairn-dashboard'),
    });
    const wrong = await asDashboard(answer.cookie!, 'x'.repeat(43))('GET', '/zones');
    expect(wrong.status).toBe(403);
  });

  it('a wrong password or an unknown email: 401 with one message; bad bodies: 400 naming the field', async () => {
    const wrong = await signIn({ email: 'ops@example.com', password: 'not it at all' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors[0]!.message).toMatch(/Wrong email or password$/);
    expect(wrong.cookie).toBeUndefined();
    const unknown = await signIn({ email: 'nobody@example.com', password });
    expect(unknown.body.errors[0]!.message).toBe(wrong.body.errors[0]!.message);
    const noPassword = await signIn({ email: 'ops@example.com' });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.errors[0]!.source).toEqual({ pointer: '/password' });
    const notText = await signIn({ api_token: 42 });
    expect(notText.status).toBe(400);
    expect(notText.body.errors[0]!.source).toEqual({ pointer: '/api_token' });
    expect((await signIn([])).status).toBe(400);
    const form = await fetch(`${f.baseUrl}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=ops%40example.com',
    });
    expect(form.status).toBe(415);
  });

  it('failed sign-ins are throttled per email: 429 with Retry-After, even for the right password', async () => {
    await createDashboardUser(f.edge.deps, {
      accountId: f.accountId,
      email: 'throttled@example.com',
      password,
    });
    for (let i = 0; i < THROTTLE.perEmail; i++) {
      expect((await signIn({ email: 'throttled@example.com', password: `wrong ${i} guess` })).status).toBe(
        401,
      );
    }
    const locked = await signIn({ email: 'throttled@example.com', password });
    expect(locked.status).toBe(429);
    expect(Number(locked.response.headers.get('retry-after'))).toBeGreaterThan(0);
    f.clock.advance(THROTTLE.windowMs + 1);
    expect((await signIn({ email: 'throttled@example.com', password })).status).toBe(200);
  });

  it('signed in with an API token, the dashboard does what the token may do, until it is revoked', async () => {
    const zone = await freshZone(f, 'pro', 'dash');
    const readOnly = await f.makeToken([zone.id], ['read']);
    const answer = await signIn({ api_token: readOnly });
    expect(answer.status).toBe(200);
    const result = answer.body.result as { actor: { type: string }; csrf: string };
    expect(result.actor.type).toBe('api_token');
    const api = asDashboard(answer.cookie!, result.csrf);
    expect((await api('GET', `/zones/${zone.id}/waf_migration/status`)).status).toBe(200);
    const config = (await api('GET', `${migrationPaths(zone.id).config}?phase_two=1`)).body.result;
    const refused = await api(
      'PUT',
      `${migrationPaths(zone.id).entrypoint}?waf_migration=pending&phase_two=1`,
      config,
    );
    expect(refused.status).toBe(403);

    const token = (await listApiTokens(f.edge.deps)).find((t) => t.hint.slice(4, 8) === readOnly.slice(4, 8));
    await revokeApiToken(f.edge.deps, token!.id);
    const after = await api('GET', `/zones/${zone.id}/waf_migration/status`);
    expect(after.status).toBe(401);
    expect(after.body.errors[0]!.message).toMatch(/session has ended/);

    expect((await signIn({ api_token: 'cet_not-a-token' })).body.errors[0]!.message).toMatch(
      /not an edge API token/,
    );
    expect((await signIn({ api_token: readOnly })).status).toBe(401);
  });

  it("the upgrade's history names the person who deployed from the dashboard", async () => {
    const zone = await freshZone(f, 'business', 'dash');
    const answer = await signIn({ email: 'ops@example.com', password });
    const csrf = (answer.body.result as { csrf: string }).csrf;
    const api = asDashboard(answer.cookie!, csrf);
    const config = (await api('GET', `${migrationPaths(zone.id).config}?phase_two=1`)).body.result;
    const done = await api(
      'PUT',
      `${migrationPaths(zone.id).entrypoint}?waf_migration=pending&phase_two=1`,
      config,
    );
    expect(done.status).toBe(200);
    const history = (await call(f, 'GET', migrationPaths(zone.id).history)).body.result as {
      actor: unknown;
    }[];
    expect(history.at(-1)!.actor).toEqual({ type: 'user', id: expect.any(String), name: 'ops@example.com' });

    // The same call with a token names the token.
    const other = await freshZone(f, 'pro', 'dash');
    expect((await upgradeWithConfig(f, other.id, 'pending')).status).toBe(200);
    const byToken = (await call(f, 'GET', migrationPaths(other.id).history)).body.result as {
      actor: unknown;
    }[];
    expect(byToken.at(-1)!.actor).toMatchObject({ type: 'api_token', name: 'test' });
  });

  it('signing out ends the session everywhere; it needs the CSRF header', async () => {
    const answer = await signIn({ email: 'ops@example.com', password });
    const csrf = (answer.body.result as { csrf: string }).csrf;
    const cookie = answer.cookie!.split(';')[0]!;
    const noHeader = await fetch(`${f.baseUrl}/dashboard/api/session`, {
      method: 'DELETE',
      headers: { cookie },
    });
    expect(noHeader.status).toBe(403);
    const out = await fetch(`${f.baseUrl}/dashboard/api/session`, {
      method: 'DELETE',
      headers: { cookie, 'x-cairn-dashboard': csrf },
    });
    expect(out.status).toBe(200);
    expect((await asDashboard(answer.cookie!, csrf)('GET', '/zones')).status).toBe(401);
    const session = await fetch(`${f.baseUrl}/dashboard/api/session`, { headers: { cookie } });
    expect(session.status).toBe(401);
  });

  it('a new password ends the sessions opened with the old one', async () => {
    await createDashboardUser(f.edge.deps, { accountId: f.accountId, email: 'reset@example.com', password });
    const before = await signIn({ email: 'reset@example.com', password });
    const api = asDashboard(before.cookie!, (before.body.result as { csrf: string }).csrf);
    expect((await api('GET', '/zones')).status).toBe(200);
    await resetDashboardPassword(f.edge.deps, {
      email: 'reset@example.com',
      password: 'another long password',
    });
    expect((await api('GET', '/zones')).status).toBe(401);
    expect((await signIn({ email: 'reset@example.com', password })).status).toBe(401);
    expect((await signIn({ email: 'reset@example.com', password: 'another long password' })).status).toBe(
      200,
    );
  });

  it('serves the app on every dashboard path with a strict policy; assets are cacheable', async () => {
    const page = await fetch(`${f.baseUrl}/dashboard/zones/${f.zones.pro.id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    const asset = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const js = await fetch(`${f.baseUrl}${asset}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toMatch(/immutable/);
    expect((await fetch(`${f.baseUrl}/dashboard`, { redirect: 'manual' })).headers.get('location')).toBe(
      '/dashboard/',
    );
  });
});
