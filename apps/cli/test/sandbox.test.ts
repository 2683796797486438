import { edgeMigrations } from '@cairn/edge';
import { identityMigrations } from '@cairn/identity';
import { connectThirdPartyUser } from '@cairn/identity/testing';
import { createApp, createTestDb } from '@cairn/kit';
import { placesMigrations } from '@cairn/places';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { prepareSandboxDatabase } from '../src/sandbox/index.ts';
import {
  Browser,
  hiddenFields,
  PASSWORD,
  REDIRECT,
  type SandboxFixture,
  startSandbox,
  USERS_API,
} from './sandbox-fixture.ts';

let f: SandboxFixture;
beforeAll(async () => {
  f = await startSandbox();
}, 120_000);
afterAll(() => f?.close());
beforeEach(async () => {
  expect((await f.control('POST', '/reset')).status).toBe(200);
});

const users = (key: string, path: string, method = 'POST') =>
  fetch(`${f.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${key}`, ...USERS_API } });

async function createManagedUser(name: string) {
  const res = await users(f.key, `/users/managed-user/create?first_name=${name}`);
  expect(res.status).toBe(200);
  return (await res.json()) as { user_id: number; access_token: string };
}

/** Polls until `check` holds (the work it waits for runs off the request path), or fails after 10 s. */
async function eventually(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('the controls take the bootstrap service key', () => {
  it("401 without a key, with a malformed one, or with another organization's key; 200 with it", async () => {
    expect((await f.control('GET', '', undefined, null)).status).toBe(401);
    const other = await f.control('GET', '/clock', undefined, f.otherKey);
    expect(other.status).toBe(401);
    expect(other.body.message).toMatch(/bootstrap service key/);
    expect((await f.control('POST', '/reset', undefined, 'svk_not-a-key')).status).toBe(401);
    const ok = await f.control('GET', '');
    expect(ok.status).toBe(200);
    expect(ok.body.mode).toBe('sandbox');
  });

  it('the routes do not exist without the sandbox (404)', async () => {
    const app = await createApp(f.deps, f.services.modules);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const res = await fetch(`${address}/_cairn/reset`, {
        method: 'POST',
        headers: { authorization: `Bearer ${f.key}` },
      });
      expect(res.status).toBe(404);
    } finally {
      await app.close();
    }
  });
});

describe('snapshots', () => {
  it('create, list, restore (rows and sequences) and delete; unknown names are 404 naming them', async () => {
    const first = await createManagedUser('Ada');
    const taken = await f.control('POST', '/snapshots', { name: 'one' });
    expect(taken.status).toBe(201);
    expect(taken.body.snapshot).toMatchObject({
      name: 'one',
      tables: expect.any(Number),
      rows: expect.any(Number),
    });
    const second = await createManagedUser('Bob');

    const listed = await f.control('GET', '/snapshots');
    expect((listed.body.snapshots as { name: string }[]).map((s) => s.name)).toEqual(['one']);

    expect((await f.control('POST', '/snapshots/one/restore')).status).toBe(200);
    // Bob is gone (his token too: the credential cache was dropped), Ada is there.
    expect(
      (
        await fetch(`${f.baseUrl}/users/managed-user/refresh-token?target_user_id=${second.user_id}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${f.key}`, ...USERS_API },
        })
      ).status,
    ).toBe(404);
    expect(
      (await users(f.key, `/users/managed-user/refresh-token?target_user_id=${first.user_id}`)).status,
    ).toBe(200);
    // The id sequence went back too: the next user gets Bob's id again.
    expect((await createManagedUser('Cy')).user_id).toBe(second.user_id);

    const again = await f.control('POST', '/snapshots', { name: 'one' });
    expect(again.status).toBe(200); // replaced

    const unknown = await f.control('POST', '/snapshots/nope/restore');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/No snapshot named "nope"; there are: "one"/);
    expect((await f.control('DELETE', '/snapshots/one')).status).toBe(200);
    expect((await f.control('DELETE', '/snapshots/one')).status).toBe(404);
    const bad = await f.control('POST', '/snapshots', { name: '../x' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/snapshot name/);
  });

  it('taking a snapshot again keeps what was written since (only those tables are copied again)', async () => {
    await f.control('POST', '/snapshots', { name: 'two' });
    const kept = await createManagedUser('Kim');
    expect((await f.control('POST', '/snapshots', { name: 'two' })).status).toBe(200);
    const dropped = await createManagedUser('Lou');
    await f.control('POST', '/snapshots/two/restore');
    expect(
      (await users(f.key, `/users/managed-user/refresh-token?target_user_id=${kept.user_id}`)).status,
    ).toBe(200);
    expect(
      (await users(f.key, `/users/managed-user/refresh-token?target_user_id=${dropped.user_id}`)).status,
    ).toBe(404);
    // A restore of another snapshot (every table) and back.
    await f.control('POST', '/reset');
    expect(
      (await users(f.key, `/users/managed-user/refresh-token?target_user_id=${kept.user_id}`)).status,
    ).toBe(404);
    await f.control('POST', '/snapshots/two/restore');
    expect(
      (await users(f.key, `/users/managed-user/refresh-token?target_user_id=${kept.user_id}`)).status,
    ).toBe(200);
  });

  it('reset goes back to the state after start: data, clock, faults and journal', async () => {
    const made = await createManagedUser('Dee');
    await f.control('POST', '/clock/advance', { by: '1h' });
    await f.control('POST', '/faults', { route: '/places/*', status: 503 });
    const reset = await f.control('POST', '/reset');
    expect(reset.status).toBe(200);
    expect(Math.abs((reset.body.clock as { offset_ms: number }).offset_ms)).toBeLessThan(60_000);
    expect((await f.control('GET', '/faults')).body.faults).toEqual([]);
    expect((await f.control('GET', '/requests')).body.requests).toEqual([]);
    expect(
      (await users(f.key, `/users/managed-user/refresh-token?target_user_id=${made.user_id}`)).status,
    ).toBe(404);
  });
});

describe('the clock', () => {
  it('freezes, advances by a duration, is set forward, and resumes', async () => {
    const frozen = (await f.control('POST', '/clock/freeze')).body as { now: string; frozen: boolean };
    expect(frozen.frozen).toBe(true);
    const advanced = (await f.control('POST', '/clock/advance', { by: '1h30m' })).body as { now: string };
    expect(Date.parse(advanced.now) - Date.parse(frozen.now)).toBe(90 * 60_000);
    const target = new Date(Date.parse(advanced.now) + 400 * 86_400_000).toISOString();
    const set = (await f.control('POST', '/clock/set', { to: target })).body;
    expect(set).toMatchObject({ now: target, frozen: true });
    expect((await f.control('POST', '/clock/resume')).body).toMatchObject({ frozen: false });
    expect(f.sandbox.clock.nowMs()).toBeGreaterThanOrEqual(Date.parse(target));
  });

  it('refuses negative, absurd or unreadable moves with 400', async () => {
    for (const by of ['-5m', -1, '20000d', 'soon', 1.5]) {
      const res = await f.control('POST', '/clock/advance', { by });
      expect(res.status, String(by)).toBe(400);
      expect(res.body.message).toMatch(/"by"/);
    }
    expect((await f.control('POST', '/clock/advance', {})).status).toBe(400);
    const past = await f.control('POST', '/clock/set', { to: '2001-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    expect(past.body.message).toMatch(/only moves forward/);
    expect((await f.control('POST', '/clock/set', { to: 'tomorrow' })).status).toBe(400);
  });
});

describe('every expiry follows the sandbox clock', () => {
  it('a session token: redeemable before 10 minutes, refused 10 min + 1 s later', async () => {
    const org = (
      await f.deps.db.query<{ id: string }>("SELECT id FROM organizations WHERE name = 'Trail Co'")
    ).rows[0]!;
    const { accessToken } = await connectThirdPartyUser(f.services.identity.deps, {
      organizationId: org.id,
      placemaker: true,
    });
    const mint = async () => {
      const res = await fetch(`${f.baseUrl}/auth/session-token`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, ...USERS_API },
      });
      return ((await res.json()) as { session_token: string }).session_token;
    };
    const open = (token: string) =>
      fetch(`${f.baseUrl}/placemakers/home?session_token=${token}`, { redirect: 'manual' });
    const early = await mint();
    const late = await mint();
    await f.control('POST', '/clock/advance', { by: '9m' });
    expect((await open(early)).status).toBe(303);
    await f.control('POST', '/clock/advance', { by: '1m1s' });
    const refused = await open(late);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(await refused.text()).toMatch(/expired/);
  });

  it('an authorization code: exchanged before 10 minutes, refused after', async () => {
    const codeFor = async () => {
      const browser = new Browser(f.baseUrl);
      const page = await browser.request('GET', '/account/signin');
      const signedIn = await browser.request('POST', '/account/signin', {
        ...hiddenFields(page.text),
        email: f.email,
        password: PASSWORD,
      });
      expect(signedIn.status).toBe(303);
      const query = new URLSearchParams({
        client_id: f.clientId,
        response_type: 'code',
        redirect_uri: REDIRECT,
      });
      let res = await browser.request('GET', `/oauth2/authenticate?${query}`);
      if (res.status === 200)
        res = await browser.request('POST', '/oauth2/authenticate', {
          ...hiddenFields(res.text),
          decision: 'allow',
        });
      expect(res.status, res.text).toBe(303);
      return new URL(res.location!).searchParams.get('code')!;
    };
    const exchange = async (code: string) => {
      const res = await fetch(`${f.baseUrl}/oauth2/access_token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: f.clientId,
          client_secret: f.clientSecret,
          redirect_uri: REDIRECT,
          code,
        }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, string> };
    };
    const fresh = await codeFor();
    const stale = await codeFor();
    await f.control('POST', '/clock/advance', { by: '9m' });
    expect((await exchange(fresh)).status).toBe(200);
    await f.control('POST', '/clock/advance', { by: '1m1s' });
    const refused = await exchange(stale);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');
  });

  it('a dashboard session: good for 12 hours, refused 12 h + 1 s after sign-in', async () => {
    const res = await fetch(`${f.baseUrl}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops@example.com', password: PASSWORD }),
    });
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie()[0]!.split(';')[0]!;
    const session = () => fetch(`${f.baseUrl}/dashboard/api/session`, { headers: { cookie } });
    await f.control('POST', '/clock/advance', { by: '11h59m' });
    expect((await session()).status).toBe(200);
    await f.control('POST', '/clock/advance', { by: '1m1s' });
    expect((await session()).status).toBe(401);
  });

  it("a person's account session: good for 14 days, signed out 14 d + 1 s after sign-in", async () => {
    const browser = new Browser(f.baseUrl);
    const page = await browser.request('GET', '/account/signin');
    const signedIn = await browser.request('POST', '/account/signin', {
      ...hiddenFields(page.text),
      email: f.email,
      password: PASSWORD,
    });
    expect(signedIn.status).toBe(303);
    await f.control('POST', '/clock/advance', { by: '13d23h59m' });
    expect((await browser.request('GET', '/account/apps')).status).toBe(200);
    await f.control('POST', '/clock/advance', { by: '1m1s' });
    const after = await browser.request('GET', '/account/apps');
    expect(after.status).toBe(303);
    expect(after.location).toMatch(/\/account\/signin/);
  });

  it('the sign-in throttle: locked after 5 failures, open again when its 15-minute window has passed', async () => {
    const signIn = (password: string) =>
      fetch(`${f.baseUrl}/dashboard/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ops@example.com', password }),
      });
    for (let i = 0; i < 5; i++) expect((await signIn('wrong password here')).status).toBe(401);
    expect((await signIn(PASSWORD)).status).toBe(429);
    await f.control('POST', '/clock/advance', { by: '15m1s' });
    expect((await signIn(PASSWORD)).status).toBe(200);
  });

  it('a rate-limit window: the burst spent is a 429, and the bucket refills as the clock moves', async () => {
    await f.control('POST', '/clock/freeze');
    const call = () =>
      fetch(`${f.baseUrl}/places/search?ll=48.85,2.35`, {
        headers: {
          authorization: `Bearer ${f.otherKey}`,
          'x-places-api-version': '2025-06-17',
          accept: 'application/json',
        },
      });
    for (let i = 0; i < 3; i++) expect((await call()).status).toBe(200);
    const limited = await call();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    await f.control('POST', '/clock/advance', { by: '1s' });
    expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(429);
  });

  it('event retention: security events older than 30 days are pruned when the clock passes them', async () => {
    await f.deps.db.query(
      `INSERT INTO edge_security_events (zone_id, occurred_at, ray_id, action, source, rule_id, description, client_ip,
         method, host, path, query, user_agent, http_protocol, matched_data)
       VALUES ($1, $2, 'ray1', 'block', 'firewallrules', 'r1', 'test', '192.0.2.1', 'GET', 'trail.example', '/', '', 'ua', 'HTTP/1.1', '{}')`,
      [f.zoneId, f.sandbox.clock.now()],
    );
    const count = async () =>
      (await f.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM edge_security_events')).rows[0]!
        .n;
    await f.control('POST', '/clock/advance', { by: '29d' });
    await f.services.edge.recorder.prune();
    expect(await count()).toBe(1);
    await f.control('POST', '/clock/advance', { by: '1d1s' });
    await eventually(async () => (await count()) === 0, 'the expired event to be pruned');
  });
});

describe('faults', () => {
  it('answers 429 with Retry-After for the next N calls, then serves again; listed and cleared', async () => {
    const added = await f.control('POST', '/faults', {
      route: '/users/managed-user/*',
      method: 'post',
      status: 429,
      retry_after: 7,
      times: 2,
    });
    expect(added.status).toBe(201);
    expect(added.body.fault).toMatchObject({
      id: expect.any(String),
      status: 429,
      remaining: 2,
      method: 'POST',
    });
    for (let i = 0; i < 2; i++) {
      const res = await users(f.key, '/users/managed-user/create?first_name=Ed');
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('7');
    }
    expect((await users(f.key, '/users/managed-user/create?first_name=Ed')).status).toBe(200);
    expect((await f.control('GET', '/faults')).body.faults).toEqual([]);

    await f.control('POST', '/faults', { route: '/users/*', status: 503 });
    await f.control('POST', '/faults', { route: '/places/*', latency_ms: 5 });
    const listed = (await f.control('GET', '/faults')).body.faults as unknown[];
    expect(listed).toHaveLength(2);
    expect((await users(f.key, '/users/managed-user/create?first_name=Ed')).status).toBe(503);
    expect((await f.control('DELETE', '/faults')).body).toEqual({ cleared: 2 });
    expect((await users(f.key, '/users/managed-user/create?first_name=Ed')).status).toBe(200);
  });

  it('adds latency, and resets the connection', async () => {
    await f.control('POST', '/faults', { route: '/healthz', latency_ms: 20, times: 1 });
    expect((await fetch(`${f.baseUrl}/healthz`)).status).toBe(200);
    const journal = (await f.control('GET', '/requests?path=/healthz')).body.requests as { fault: string }[];
    expect(journal[0]!.fault).toMatch(/^fault_/);

    await f.control('POST', '/faults', { route: '/healthz', reset_connection: true, times: 1 });
    await expect(fetch(`${f.baseUrl}/healthz`)).rejects.toThrow();
    expect((await fetch(`${f.baseUrl}/healthz`)).status).toBe(200);
  });

  it('with a probability (the share itself is tested with given random numbers in sandbox-parts)', async () => {
    const added = await f.control('POST', '/faults', { route: '/healthz', status: 503, probability: 1 });
    expect(added.body.fault).toMatchObject({ probability: 1, times: null });
    for (let i = 0; i < 3; i++) expect((await fetch(`${f.baseUrl}/healthz`)).status).toBe(503);
    expect(((await f.control('GET', '/faults')).body.faults as { hits: number }[])[0]!.hits).toBe(3);
  });

  it('refuses faults on /_cairn/ and bad fields with 400 naming them', async () => {
    for (const route of ['/_cairn/reset', '/_cairn*', '/_c*']) {
      const res = await f.control('POST', '/faults', { route, status: 503 });
      expect(res.status, route).toBe(400);
      expect(res.body.message).toMatch(/_cairn/);
    }
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ route: 'places', status: 503 }, /"route"/],
      [{ route: '/x', status: 200 }, /"status"/],
      [{ route: '/x', retry_after: 5 }, /"retry_after"/],
      [{ route: '/x', status: 503, times: 2, probability: 0.5 }, /not both/],
      [{ route: '/x', status: 503, probability: 2 }, /"probability"/],
      [{ route: '/x', latency_ms: 600_000 }, /"latency_ms"/],
      [{ route: '/x' }, /at least one/],
      [{ route: '/x', status: 503, reset_connection: true }, /not both/],
    ];
    for (const [body, message] of cases) {
      const res = await f.control('POST', '/faults', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
  });
});

describe('the request journal', () => {
  it('keeps method, path, query, status, attribution and timing, with secrets redacted; filters and clears', async () => {
    const made = await createManagedUser('Fay');
    await users(made.access_token, '/users/managed-user/create?first_name=Nope');
    await fetch(`${f.baseUrl}/oauth2/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: f.clientId,
        client_secret: f.clientSecret,
        code: 'c0de',
      }),
    });
    const all = (await f.control('GET', '/requests')).body.requests as Record<string, unknown>[];
    expect(all.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      'POST /users/managed-user/create 200',
      'POST /users/managed-user/create 403',
      'POST /oauth2/access_token 400',
    ]);
    const org = (await f.deps.db.query<{ id: string }>("SELECT id FROM organizations WHERE name = 'Demo'"))
      .rows[0]!;
    expect(all[0]).toMatchObject({
      query: { first_name: 'Fay' },
      attribution: { kind: 'service_key', organization_id: org.id, app_id: null, user_id: null },
      duration_ms: expect.any(Number),
      request_id: expect.any(String),
    });
    expect((all[0]!.headers as Record<string, string>).authorization).toBe('Bearer svk_[redacted]');
    expect(all[2]!.body).toMatchObject({
      client_id: f.clientId,
      client_secret: '[redacted]',
      code: '[redacted]',
    });
    const text = JSON.stringify(all);
    for (const secret of [f.key, made.access_token, f.clientSecret]) expect(text).not.toContain(secret);

    const filtered = async (query: string) =>
      ((await f.control('GET', `/requests?${query}`)).body.requests as unknown[]).length;
    expect(await filtered('method=post&path=/users/')).toBe(2);
    expect(await filtered('status=4xx')).toBe(2);
    expect(await filtered('status=200')).toBe(1);
    expect(await filtered(`since=${new Date(f.sandbox.clock.nowMs() + 60_000).toISOString()}`)).toBe(0);
    expect((await f.control('GET', '/requests?status=abc')).status).toBe(400);
    expect((await f.control('GET', '/requests?since=yesterday')).status).toBe(400);
    expect((await f.control('DELETE', '/requests')).body).toEqual({ cleared: 3 });
    expect(await filtered('')).toBe(0);
  });
});

describe('sandbox mode refuses a database it did not create', () => {
  it('a migrated database without the sandbox mark is refused with a message', async () => {
    // The fixture's migrations: the template database is reused.
    const db = await createTestDb([...identityMigrations, ...placesMigrations, ...edgeMigrations]);
    try {
      await expect(prepareSandboxDatabase(db)).rejects.toThrow(/not created in sandbox mode/);
    } finally {
      await db.close();
    }
  });
});
