import { createServiceKey } from '@cairn/identity';
import { serveOnLoopback } from '@cairn/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateStore } from '../src/access/rate-limit.ts';
import { type SharedBuckets, type TakeRequest, takeFromBucket } from '../src/access/rate-limit-lease.ts';
import { createPostgresBuckets } from '../src/access/rate-limit-postgres.ts';
import { createRedisBuckets } from '../src/access/rate-limit-redis.ts';
import { createPlaces, type Places } from '../src/index.ts';
import { type PlacesFixture, startPlaces } from './helpers.ts';

// Two app instances on one database, each with its own rate-limit store object (as two hosts would have), and
// one credential calling both. The documented limit: RATE requests a second, bursts of up to BURST.
const RATE = 2;
const BURST = 4;
const redisUrl = process.env.REDIS_URL;
const stores: RateStore[] = redisUrl ? ['database', 'redis'] : ['database'];

interface TwoHosts {
  f: PlacesFixture;
  second: Places;
  urls: string[];
  close(): Promise<void>;
}

async function twoHosts(rateStore: RateStore, url = redisUrl): Promise<TwoHosts> {
  const config = { rateLimit: RATE, rateBurst: BURST, rateStore, ...(url ? { redisUrl: url } : {}) };
  const f = await startPlaces({ config });
  const second = createPlaces(f.deps, { authenticate: f.identity.authenticate, config });
  await second.start();
  // The fixture's server took the configured port; this one takes any free port.
  const server = await serveOnLoopback({ ...f.deps, config: { ...f.deps.config, port: 0 } }, [
    f.identity.module,
    second.module,
  ]);
  return {
    f,
    second,
    urls: [f.baseUrl, server.baseUrl],
    async close() {
      await server.close();
      await second.stop();
      await f.close();
    },
  };
}

async function call(baseUrl: string, token: string) {
  const res = await fetch(`${baseUrl}/places/search?ll=48.8566,2.3522&limit=1`, {
    headers: { authorization: `Bearer ${token}`, 'x-places-api-version': '2025-06-17' },
  });
  const body = (await res.json()) as { message?: string };
  return { status: res.status, retryAfter: res.headers.get('retry-after'), message: body.message };
}

/** `n` calls spread over both hosts, all at once; the statuses counted. */
async function burst(hosts: TwoHosts, token: string, n: number) {
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => call(hosts.urls[i % 2]!, token)));
  const count = (status: number) => answers.filter((a) => a.status === status).length;
  return { ok: count(200), limited: count(429), answers };
}

describe.each(stores)('the rate limit shared by two hosts (%s store)', (rateStore) => {
  let hosts: TwoHosts;
  beforeAll(async () => {
    hosts = await twoHosts(rateStore);
  }, 120_000);
  afterAll(async () => {
    await hosts?.close();
  });

  it('uses the store asked for on both hosts', () => {
    expect(hosts.f.places.limiter.store).toBe(rateStore);
    expect(hosts.second.limiter.store).toBe(rateStore);
  });

  it('allows one credential the documented burst and rate in total, not per host; 429 with an exact Retry-After', async () => {
    const { secret } = await createServiceKey(hosts.f.identity.deps, { organizationId: hosts.f.orgId });
    // The clock stands still: a full bucket is BURST calls, whichever host takes them.
    const first = await burst(hosts, secret, 3 * BURST);
    expect(first.ok).toBe(BURST);
    expect(first.limited).toBe(2 * BURST);
    // Empty bucket: one token is back after 1/RATE s, so Retry-After is ceil(0.5) = 1 s, on both hosts.
    const refused = first.answers.filter((a) => a.status === 429);
    expect(new Set(refused.map((a) => a.retryAfter))).toEqual(new Set(['1']));
    expect(refused[0]!.message).toBe('Rate limit exceeded for this credential; retry after 1 s');

    // Each second of the clock gives RATE calls back in total, over five seconds.
    let allowed = 0;
    for (let second = 0; second < 5; second++) {
      hosts.f.clock.advance(1000);
      allowed += (await burst(hosts, secret, 4 * RATE)).ok;
    }
    expect(allowed).toBe(5 * RATE);
  });

  it('Retry-After says when a whole token is back when the rate is below one a second', async () => {
    const { secret } = await createServiceKey(hosts.f.identity.deps, { organizationId: hosts.f.orgId });
    expect((await burst(hosts, secret, BURST)).ok).toBe(BURST);
    hosts.f.clock.advance(250); // half a token back (RATE 2/s): the next one in 0.25 s, which rounds up to 1 s
    const next = await call(hosts.urls[1]!, secret);
    expect(next).toMatchObject({ status: 429, retryAfter: '1' });
    hosts.f.clock.advance(250);
    expect((await call(hosts.urls[0]!, secret)).status).toBe(200);
    expect((await call(hosts.urls[1]!, secret)).status).toBe(429);
  });

  it('keeps a bucket per credential: another key is not limited by the first', async () => {
    const a = await createServiceKey(hosts.f.identity.deps, { organizationId: hosts.f.orgId });
    const b = await createServiceKey(hosts.f.identity.deps, { organizationId: hosts.f.orgId });
    expect((await burst(hosts, a.secret, 2 * BURST)).ok).toBe(BURST);
    expect((await burst(hosts, b.secret, 2 * BURST)).ok).toBe(BURST);
  });
});

describe.each(stores)('one call to the %s store', (rateStore) => {
  it('takes tokens ahead only from the upper half of the bucket and adds given-back tokens first, as takeFromBucket says', async () => {
    const f = await startPlaces({});
    const options = { rate: 10, burst: 20 };
    const buckets: SharedBuckets =
      rateStore === 'database'
        ? createPostgresBuckets(f.deps.db, f.clock, options)
        : createRedisBuckets(redisUrl!, f.clock, { ...options, keyPrefix: `cairn:test:${Date.now()}:` });
    try {
      // The Redis client connects in the background (calls fail until it has): wait for it on another key.
      for (let tries = 0; ; tries++) {
        try {
          await buckets.takeUpTo('warm-up', { want: 0, ahead: 0, giveBack: 0 });
          break;
        } catch (error) {
          if (tries > 100) throw error;
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      const steps: (TakeRequest & { advance: number })[] = [
        { want: 1, ahead: 5, giveBack: 0, advance: 0 }, // full bucket: 1 + 5 taken
        { want: 2, ahead: 5, giveBack: 0, advance: 0 }, // 14 left: 2 + 2 (down to half)
        { want: 3, ahead: 5, giveBack: 0, advance: 0 }, // 10 left: 3, nothing ahead
        { want: 1, ahead: 5, giveBack: 4, advance: 100 }, // 7 + 1 refilled + 4 back
        { want: 30, ahead: 5, giveBack: 0, advance: 250 }, // more wanted than there is
        { want: 1, ahead: 0, giveBack: 0, advance: 0 }, // empty: nothing
      ];
      let model = options.burst;
      for (const step of steps) {
        f.clock.advance(step.advance);
        const refilled = Math.min(
          options.burst,
          model + step.giveBack + (step.advance / 1000) * options.rate,
        );
        const expected = takeFromBucket(refilled, options.burst, step);
        model = expected.tokens;
        const got = await buckets.takeUpTo('credential-1', step);
        expect(got.granted).toBe(expected.granted);
        expect(got.tokens).toBeCloseTo(expected.tokens, 9);
      }
    } finally {
      await buckets.close();
      await f.close();
    }
  }, 120_000);
});

describe('the in-process store on two hosts', () => {
  it('allows each host its own burst (why several hosts need the database or Redis store)', async () => {
    const hosts = await twoHosts('memory');
    try {
      const { secret } = await createServiceKey(hosts.f.identity.deps, { organizationId: hosts.f.orgId });
      expect((await burst(hosts, secret, 3 * BURST)).ok).toBe(2 * BURST);
    } finally {
      await hosts.close();
    }
  }, 120_000);
});

describe('a shared store that does not answer', () => {
  it('limits each host on its own instead of failing the call (Redis unreachable)', async () => {
    const hosts = await twoHosts('redis', 'redis://127.0.0.1:1');
    try {
      const { secret } = await createServiceKey(hosts.f.identity.deps, { organizationId: hosts.f.orgId });
      const answers = await burst(hosts, secret, 3 * BURST);
      expect(answers.ok).toBe(2 * BURST);
      expect(answers.limited).toBe(BURST);
      // Said once a minute, not once a call.
      const said = hosts.f.deps.logLines.filter((line) =>
        line.includes("the rate limit's redis store failed; limiting in this process"),
      );
      expect(said).toHaveLength(2); // one per host
    } finally {
      await hosts.close();
    }
  }, 120_000);
});
