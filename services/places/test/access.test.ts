import { createManagedUser, revokeServiceKey } from '@cairn/identity';
import { connectThirdPartyUser } from '@cairn/identity/testing';
import { generateToken, hashToken } from '@cairn/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listUsage } from '../src/index.ts';
import { callPlaces, type PlacesFixture, startPlaces } from './helpers.ts';

let f: PlacesFixture;
beforeAll(async () => {
  f = await startPlaces({ count: 200, config: { rateLimit: 3, rateBurst: 3 } });
}, 120_000);
afterAll(async () => {
  await f.close();
});

async function oauthUserToken(): Promise<{ token: string; userId: number; appId: string }> {
  const connected = await connectThirdPartyUser(f.identity.deps, { organizationId: f.orgId });
  return { token: connected.accessToken, userId: connected.userId, appId: connected.appId };
}

describe('credentials, version header, rate limit, usage', () => {
  it('accepts a service key, a managed user token and an OAuth user token, and counts each call', async () => {
    const managed = await createManagedUser(f.identity.deps, await f.identity.resolveBearer(f.serviceKey), {
      firstName: 'Grace',
      lastName: null,
    });
    const oauth = await oauthUserToken();
    for (const token of [f.serviceKey, managed.access_token, oauth.token]) {
      const res = await callPlaces(f, '/places/search?ll=48.8566,2.3522&limit=1', { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      f.clock.advance(1000);
    }
    await f.places.usage.flush();
    const usage = await listUsage(f.deps.db, { organizationId: f.orgId });
    const byKind = Object.fromEntries(usage.map((u) => [u.credential_kind, u]));
    expect(byKind.service_key).toMatchObject({ endpoint: '/places/search', calls: 1, user_id: null });
    expect(byKind.managed_user).toMatchObject({ calls: 1, user_id: managed.user_id });
    expect(byKind.oauth_user).toMatchObject({ calls: 1, user_id: oauth.userId, app_id: oauth.appId });
  });

  it('refuses a missing, unknown or revoked credential with 401', async () => {
    expect((await callPlaces(f, '/places/search', { token: null })).status).toBe(401);
    const unknown = await callPlaces(f, '/places/search', { token: generateToken('serviceKey') });
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toMatch(/Invalid request token/);
    const { createServiceKey } = await import('@cairn/identity');
    const { key, secret } = await createServiceKey(f.identity.deps, { organizationId: f.orgId });
    expect((await callPlaces(f, '/places/search?limit=1', { token: secret })).status).toBe(200);
    await revokeServiceKey(f.identity.deps, key.id);
    const revoked = await callPlaces(f, '/places/search?limit=1', { token: secret });
    expect(revoked.status).toBe(401);
    expect(revoked.body.message).toMatch(/revoked/);
  });

  it('requires X-Places-Api-Version: 2025-06-17', async () => {
    const missing = await callPlaces(f, '/places/search', { version: null });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/^Please provide a valid version\./);
    expect(missing.body.message).toMatch(/X-Places-Api-Version/);
    const wrong = await callPlaces(f, '/places/search', { version: '2024-01-01' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/2024-01-01.*2025-06-17/);
  });

  it('limits each credential with a token bucket: 429 with Retry-After, then recovers', async () => {
    const { createServiceKey } = await import('@cairn/identity');
    const { secret } = await createServiceKey(f.identity.deps, { organizationId: f.orgId });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let n = 0; n < 5; n++) {
      const res = await callPlaces(f, '/places/search?limit=1', { token: secret });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get('retry-after');
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    // Another credential has its own bucket.
    expect((await callPlaces(f, '/places/search?limit=1')).status).not.toBe(429);
    f.clock.advance(1000);
    expect((await callPlaces(f, '/places/search?limit=1', { token: secret })).status).toBe(200);
    await f.places.usage.flush();
    const { rows } = await f.deps.db.query<{ throttled: number }>(
      `SELECT throttled FROM places_usage u JOIN service_keys k ON k.id::text = u.credential_id WHERE k.token_hash = $1`,
      [hashToken(secret)],
    );
    expect(rows[0]?.throttled).toBe(2);
  });

  it("puts the caller's organization and credential kind on the log line of a refused call", async () => {
    const before = f.deps.logLines.length;
    const res = await callPlaces(f, '/places/search?limit=abc');
    expect(res.status).toBe(400);
    const logged = f.deps.logLines
      .slice(before)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.msg === res.body.message);
    expect(logged).toMatchObject({ status: 400, organization_id: f.orgId, credential_kind: 'service_key' });
  });
});

describe('bad input gets 400 naming the parameter', () => {
  it.each([
    ['ll=91,0', /ll/],
    ['ll=abc', /ll/],
    ['radius=100001&ll=1,1', /radius/],
    ['radius=-1&ll=1,1', /radius/],
    ['limit=0', /limit/],
    ['limit=51', /limit/],
    ['min_price=0', /min_price/],
    ['max_price=5', /max_price/],
    ['min_price=3&max_price=2', /max_price/],
    ['open_at=1T2130&open_now=true', /open_now and open_at/],
    ['open_at=8T2500', /open_at/],
    ['ne=1,1', /sw/],
    ['sw=1,1', /ne/],
    ['sort=NEAREST', /sort/],
    ['fields=name,colour', /^Unexpected field\(s\): 'colour' provided\./],
    ['fields=name,name', /Unexpected field\(s\): 'name' provided\..*once/],
    ['cursor=abc.def', /cursor/],
    ['near=Nowhereville%20Qqq', /near/],
    ['ll=1,1&ll=2,2', /ll/],
    ['exclude_all_chains=maybe', /exclude_all_chains/],
  ])('%s', async (query, message) => {
    f.clock.advance(1000);
    const res = await callPlaces(f, `/places/search?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.message).toMatch(message);
  });
});
