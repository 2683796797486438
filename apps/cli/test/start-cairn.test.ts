import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDirs } from '@cairn/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixtureError } from '../src/fixtures.ts';
import { type Cairn, type Fixtures, startCairn } from '../src/testing.ts';

// startCairn always runs on an in-memory PGlite (its point: no server to provide), so this file does the same
// on both passes of the suite.
const dirs = tempDirs('cairn-start');
afterAll(() => dirs.removeAll());

const KEY = `svk_${'f'.repeat(43)}`;
const USERS = { 'x-users-api-version': '2025-06-17', accept: 'application/json' };
const PASSWORD = 'a long password 1';
const FIXTURES: Fixtures = {
  organizations: [{ name: 'Trail Co', service_keys: [{ name: 'ci', value: KEY }] }],
  edge: {
    zones: [{ name: 'trail.example', plan: 'pro', settings: { waf: 'on' } }],
    dashboard_users: [{ email: 'ops@example.com', password: PASSWORD }],
  },
};

let cairn: Cairn;
let cacheDir: string;
beforeAll(async () => {
  cacheDir = dirs.make();
  cairn = await startCairn({ places: 30, cacheDir, fixtures: FIXTURES });
}, 600_000);
afterAll(async () => {
  await cairn?.stop();
});

const managedUsers = async (key: string) => {
  const res = await fetch(`${cairn.url}/users/managed-user/create?first_name=Ada`, {
    method: 'POST',
    headers: { ...USERS, authorization: `Bearer ${key}` },
  });
  return res;
};

describe('startCairn', () => {
  it('serves every API and the edge proxy, with the fixtures and the bootstrap key', async () => {
    expect(cairn.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(cairn.proxyUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(cairn.serviceKey).toMatch(/^svk_[A-Za-z0-9_-]{43}$/);
    expect((await managedUsers(cairn.serviceKey)).status).toBe(200);
    expect((await managedUsers(KEY)).status).toBe(200);
    const search = await fetch(`${cairn.url}/places/search?query=cafe&limit=1`, {
      headers: { authorization: `Bearer ${KEY}`, 'x-places-api-version': '2025-06-17' },
    });
    expect(search.status).toBe(200);
    const zones = await fetch(`${cairn.url}/_cairn/requests`, {
      headers: { authorization: `Bearer ${cairn.serviceKey}` },
    });
    expect(zones.status).toBe(200);
  });

  it('snapshots, restores and resets the data; the journal and faults are in process too', async () => {
    await cairn.reset();
    await cairn.snapshot('empty');
    expect((await managedUsers(KEY)).status).toBe(200);
    expect(cairn.requests.list({ path: '/users/managed-user/create' })).toHaveLength(1);
    const [entry] = cairn.requests.list({ path: '/users/managed-user/create' });
    expect(entry?.headers.authorization).not.toContain(KEY);

    cairn.faults.add({ route: '/users/managed-user/create', status: 503, times: 1 });
    expect((await managedUsers(KEY)).status).toBe(503);
    expect((await managedUsers(KEY)).status).toBe(200);

    await cairn.restore('empty');
    await expect(cairn.restore('never-taken')).rejects.toThrow(/never-taken/);
    await cairn.reset();
    expect(cairn.requests.list()).toHaveLength(0);
    expect(cairn.faults.list()).toHaveLength(0);
  });

  it('moves the clock: a dashboard login from the fixtures expires after 12 hours', async () => {
    await cairn.reset();
    const signIn = await fetch(`${cairn.url}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops@example.com', password: PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.getSetCookie()[0]!.split(';')[0]!;
    const session = () => fetch(`${cairn.url}/dashboard/api/session`, { headers: { cookie } });
    cairn.clock.advance('11h59m');
    expect((await session()).status).toBe(200);
    cairn.clock.advance('1m1s');
    expect((await session()).status).toBe(401);
    await cairn.reset();
    expect(Math.abs(cairn.clock.now().getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('starts again from the cached template, and a second instance is independent', async () => {
    const other = await startCairn({ places: 30, cacheDir, fixtures: FIXTURES });
    try {
      expect(other.url).not.toBe(cairn.url);
      expect(other.serviceKey).toBe(cairn.serviceKey);
      expect((await fetch(`${other.url}/healthz`)).status).toBe(200);
    } finally {
      await other.stop();
    }
  });

  it('refuses bad fixtures whole, naming the file, line and field', async () => {
    const file = join(dirs.make(), 'bad.yaml');
    writeFileSync(file, 'organizations:\n  - name: X\n    service_keys:\n      - value: nope\n');
    const refused = startCairn({ places: 0, cacheDir, fixtures: file });
    await expect(refused).rejects.toThrow(FixtureError);
    await expect(refused).rejects.toThrow(`${file}:4: organizations[0].service_keys[0].value`);
    await expect(startCairn({ places: 0, cacheDir, fixtures: { zones: [] } as never })).rejects.toThrow(
      /<fixtures>:0: zones: is not a field here/,
    );
  });
});
