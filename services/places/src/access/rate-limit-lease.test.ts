import { setImmediate } from 'node:timers/promises';
import { createFakeClock, type FakeClock } from '@cairn/kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RateOptions } from './rate-limit.ts';
import { createLeasedRateLimiter, LEASE_MS, type SharedBuckets, takeFromBucket } from './rate-limit-lease.ts';

/**
 * One token bucket standing for the shared store (the PostgreSQL and Redis stores run the same arithmetic;
 * test/rate-limit-shared.test.ts runs them); each call answers after a turn of the event loop, as a round trip
 * would, and counts what it handed out.
 */
function sharedBucket(clock: FakeClock, options: RateOptions) {
  let tokens = options.burst;
  let at = clock.nowMs();
  const totals = { granted: 0, givenBack: 0, calls: 0 };
  const buckets: SharedBuckets = {
    store: 'database',
    async takeUpTo(_id, request) {
      await setImmediate();
      const now = clock.nowMs();
      const refilled = Math.min(
        options.burst,
        tokens + request.giveBack + (Math.max(0, now - at) / 1000) * options.rate,
      );
      at = Math.max(at, now);
      const taken = takeFromBucket(refilled, options.burst, request);
      tokens = taken.tokens;
      totals.granted += taken.granted;
      totals.givenBack += request.giveBack;
      totals.calls++;
      return taken;
    },
    async close() {},
  };
  return { buckets, totals };
}

describe('the rate limit over a shared store, taken in leases', () => {
  it('asks the store once per call when calls come one at a time, and refuses exactly when the bucket is empty', async () => {
    const clock = createFakeClock();
    const options = { rate: 2, burst: 3 };
    const { buckets, totals } = sharedBucket(clock, options);
    const limiter = createLeasedRateLimiter(buckets, clock, options);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await limiter.take('k'));
    expect(answers.map((a) => a.ok)).toEqual([true, true, true, false]);
    expect(answers[3]).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(totals.calls).toBe(4);
    clock.advance(500); // one token back
    expect(await limiter.take('k')).toEqual({ ok: true });
    expect(await limiter.take('k')).toMatchObject({ ok: false });
  });

  it('serves calls that arrive together with one call to the store, refusing those the bucket cannot cover', async () => {
    const clock = createFakeClock();
    const options = { rate: 1, burst: 5 };
    const { buckets, totals } = sharedBucket(clock, options);
    const limiter = createLeasedRateLimiter(buckets, clock, options);
    const answers = await Promise.all(Array.from({ length: 8 }, () => limiter.take('k')));
    expect(answers.filter((a) => a.ok)).toHaveLength(5);
    expect(answers.filter((a) => !a.ok)).toEqual(
      Array.from({ length: 3 }, () => ({ ok: false, retryAfterSeconds: 1 })),
    );
    // The first call asks alone; the seven that came while it was in flight go together.
    expect(totals.calls).toBe(2);
  });

  it('a busy credential costs a call to the store per lease, not per call', async () => {
    const clock = createFakeClock();
    const options = { rate: 10_000, burst: 10_000 };
    const { buckets, totals } = sharedBucket(clock, options);
    const limiter = createLeasedRateLimiter(buckets, clock, options);
    let ok = 0;
    // 2,000 calls a second for two seconds, one each half millisecond.
    for (let i = 0; i < 4000; i++) {
      if ((await limiter.take('k')).ok) ok++;
      if (i % 2 === 1) clock.advance(1);
    }
    expect(ok).toBe(4000);
    expect(totals.calls).toBeLessThan(100);
    expect(totals.calls).toBeGreaterThan(10);
  });

  it('gives unspent tokens back when the lease ends, so another host gets them', async () => {
    const clock = createFakeClock();
    const options = { rate: 2000, burst: 100 };
    const { buckets, totals } = sharedBucket(clock, options);
    const a = createLeasedRateLimiter(buckets, clock, options);
    const b = createLeasedRateLimiter(buckets, clock, options);
    // Host a is busy (1,000 calls/s): it takes tokens ahead of its calls.
    for (let i = 0; i < 300; i++) {
      expect(await a.take('k')).toEqual({ ok: true });
      clock.advance(1);
    }
    // It stops; its lease ends. Its next call gives the unspent tokens back.
    clock.advance(LEASE_MS + 1);
    await a.take('k');
    expect(totals.givenBack).toBeGreaterThan(0);
    // With the refill stopped (no time passes), host b gets every whole token the bucket has.
    let bOk = 0;
    while ((await b.take('k')).ok) bOk++;
    const held = totals.granted - totals.givenBack - 301 - bOk;
    expect(held).toBeLessThanOrEqual(Math.floor(options.burst / 4));
  });

  it('never lets two hosts together exceed burst + rate × (time + one lease)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 200 }),
        fc.array(
          fc.record({
            host: fc.integer({ min: 0, max: 1 }),
            together: fc.integer({ min: 1, max: 6 }),
            advance: fc.integer({ min: 0, max: 80 }),
          }),
          { minLength: 1, maxLength: 120 },
        ),
        async (burst, rate, steps) => {
          const clock = createFakeClock();
          const options = { rate, burst };
          const { buckets, totals } = sharedBucket(clock, options);
          const hosts = [0, 1].map(() => createLeasedRateLimiter(buckets, clock, options));
          const start = clock.nowMs();
          let admitted = 0;
          for (const step of steps) {
            const answers = await Promise.all(
              Array.from({ length: step.together }, () => hosts[step.host]!.take('k')),
            );
            admitted += answers.filter((x) => x.ok).length;
            clock.advance(step.advance);
          }
          const seconds = (clock.nowMs() - start + LEASE_MS) / 1000;
          expect(admitted).toBeLessThanOrEqual(burst + rate * seconds + 1e-9);
          // Every call admitted spent a token the shared bucket handed out.
          expect(admitted).toBeLessThanOrEqual(totals.granted - totals.givenBack);
        },
      ),
      { numRuns: 200 },
    );
  });
});
