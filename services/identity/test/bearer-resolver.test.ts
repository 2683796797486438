import type { Db } from '@cairn/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBearerResolver } from '../src/auth/resolve-bearer.ts';
import { createServiceKey } from '../src/index.ts';
import { revokeServiceKeyRow } from '../src/store/service-keys.ts';
import { type IdentityFixture, startIdentity } from './helpers.ts';

let f: IdentityFixture;
beforeAll(async () => {
  f = await startIdentity();
}, 60_000);
afterAll(() => f?.close());

/** The fixture's database, counting the queries sent through it. */
function countingDb(): { db: Db; queries: () => number } {
  let queries = 0;
  const real = f.deps.db;
  const db = Object.assign(Object.create(real) as Db, {
    query: ((...args: Parameters<Db['query']>) => {
      queries++;
      return real.query(...args);
    }) as Db['query'],
  });
  return { db, queries: () => queries };
}

describe('the bearer resolver', () => {
  it('looks a credential up once for the requests that arrive together, again once its entry expires', async () => {
    const { db, queries } = countingDb();
    const resolver = createBearerResolver(db, f.clock, { ttlMs: 1000 });
    const together = () => Promise.all(Array.from({ length: 32 }, () => resolver.resolve(f.serviceKey)));
    for (const auth of await together()) expect(auth.organizationId).toBe(f.orgId);
    expect(queries()).toBe(1);
    await together();
    expect(queries()).toBe(1);
    f.clock.advance(1001);
    await together();
    expect(queries()).toBe(2);
  });

  it('does not keep what a lookup read before a revocation was announced, however late its answer', async () => {
    const { key, secret } = await createServiceKey(f.identity.deps, { organizationId: f.orgId });
    // The first lookup reads the key while it is live, and its answer is held back until after the revocation
    // (on a pool of connections, answers may come back in any order).
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let first = true;
    const real = f.deps.db;
    const db = Object.assign(Object.create(real) as Db, {
      query: (async (...args: Parameters<Db['query']>) => {
        const answer = await real.query(...args);
        if (first) {
          first = false;
          await held;
        }
        return answer;
      }) as Db['query'],
    });
    const resolver = createBearerResolver(db, f.clock, { ttlMs: 60_000 });
    const before = resolver.resolve(secret);
    await new Promise((r) => setTimeout(r, 50));
    const hash = await revokeServiceKeyRow(real, key.id, f.clock.now());
    resolver.forget([hash!]);
    // A request after the announcement does not wait for the lookup from before it, and is refused.
    await expect(resolver.resolve(secret)).rejects.toThrow(/revoked/);
    release();
    await expect(before).resolves.toMatchObject({ organizationId: f.orgId });
    // What the late answer said is not kept: the key stays refused.
    await expect(resolver.resolve(secret)).rejects.toThrow(/revoked/);
  });

  it('refuses malformed credentials without a query, together or not', async () => {
    const { db, queries } = countingDb();
    const resolver = createBearerResolver(db, f.clock, { ttlMs: 1000 });
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => resolver.resolve('nonsense')));
    for (const r of results) {
      expect(r.status).toBe('rejected');
      expect(String((r as PromiseRejectedResult).reason.message)).toContain('Invalid request token');
    }
    expect(queries()).toBe(0);
  });

  it('answers a credential it knows at once, from the header as sent or the token, until it is revoked', async () => {
    const { key, secret } = await createServiceKey(f.identity.deps, { organizationId: f.orgId });
    const { db, queries } = countingDb();
    const resolver = createBearerResolver(db, f.clock, { ttlMs: 60_000 });
    const first = resolver.resolveAuthorization(`Bearer ${secret}`);
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toMatchObject({ organizationId: f.orgId, credentialId: key.id });
    // Known now: a plain answer, no promise, for the header in any accepted form and for the token.
    for (const header of [`Bearer ${secret}`, `bearer   ${secret}  `, `BEARER ${secret}`]) {
      const known = resolver.resolveAuthorization(header);
      expect(known).not.toBeInstanceOf(Promise);
      expect(known).toMatchObject({ organizationId: f.orgId, credentialId: key.id });
    }
    expect(resolver.resolve(secret)).not.toBeInstanceOf(Promise);
    expect(queries()).toBe(1);
    const hash = await revokeServiceKeyRow(f.deps.db, key.id, f.clock.now());
    resolver.forget([hash!]);
    for (const header of [`Bearer ${secret}`, `bearer   ${secret}  `]) {
      await expect(resolver.resolveAuthorization(header)).rejects.toThrow(/revoked/);
    }
    await expect(resolver.resolve(secret)).rejects.toThrow(/revoked/);
    expect(queries()).toBe(2);
  });

  it('throws the 401 that says what is wrong with a malformed header, without a query', () => {
    const { db, queries } = countingDb();
    const resolver = createBearerResolver(db, f.clock, { ttlMs: 1000 });
    for (const [header, message, code] of [
      [undefined, /Missing Authorization header/, undefined],
      ['', /Missing Authorization header/, undefined],
      ['Bearer ', /no credential after "Bearer"/, 'invalid_request'],
      [`Bearer ${f.serviceKey} extra`, /Malformed Authorization header/, 'invalid_request'],
      [`Basic ${f.serviceKey}`, /Malformed Authorization header/, 'invalid_request'],
      [`Bearer\t${f.serviceKey}`, /Malformed Authorization header/, 'invalid_request'],
      [`Bearer ${f.serviceKey}\u0000`, /Malformed Authorization header/, 'invalid_request'],
      [`Bearer ${f.serviceKey}\u00e9`, /Malformed Authorization header/, 'invalid_request'],
    ] as const) {
      let thrown: unknown;
      try {
        resolver.resolveAuthorization(header);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, String(header)).toMatchObject({ status: 401, message: expect.stringMatching(message) });
      const challenge = (thrown as { headers?: Record<string, string> }).headers?.['www-authenticate'];
      expect(challenge).toBe(code ? `Bearer realm="cairn", error="${code}"` : 'Bearer realm="cairn"');
    }
    expect(queries()).toBe(0);
  });

  it('refuses a well-formed header with a token of the largest size HTTP allows, without a query or an entry', async () => {
    const { db, queries } = countingDb();
    const resolver = createBearerResolver(db, f.clock, { ttlMs: 60_000 });
    const header = `Bearer svk_${'A'.repeat(16_000)}`;
    for (let i = 0; i < 2; i++) {
      await expect(Promise.resolve().then(() => resolver.resolveAuthorization(header))).rejects.toMatchObject(
        {
          status: 401,
          message: 'Invalid request token.',
        },
      );
    }
    expect(queries()).toBe(0);
  });
});
