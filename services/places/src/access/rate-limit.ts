import type { Clock, Logger } from '@cairn/kit';

/** Requests a second on average, and the bucket's size (the largest burst). */
export interface RateOptions {
  rate: number;
  burst: number;
}

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/** Where the buckets live: this process, the PostgreSQL database, or Redis (REDIS_URL). */
export type RateStore = 'memory' | 'database' | 'redis';

/**
 * A token bucket per credential: `rate` requests a second on average, bursts of up to `burst`. The memory
 * store keeps the buckets in this process; the database and Redis stores share them between every process
 * and host, so the documented rate holds for a credential whichever host serves it.
 */
export interface RateLimiter {
  readonly store: RateStore;
  /** Takes one token; when there is none, how many seconds until there will be. */
  take(credentialId: string): Promise<RateDecision>;
  close(): Promise<void>;
  /** Forgets the buckets this process holds (a sandbox's restore puts older ones back in the database). */
  clear?(): void;
}

/** A bucket after `elapsedMs` of refill and one attempt to take a token. Every store decides with this. */
export function takeToken(tokens: number, elapsedMs: number, options: RateOptions) {
  const refilled = Math.min(options.burst, tokens + (Math.max(0, elapsedMs) / 1000) * options.rate);
  return refilled >= 1 ? { taken: true, tokens: refilled - 1 } : { taken: false, tokens: refilled };
}

/** The answer for a bucket left with `tokens` after the attempt: Retry-After is when one whole token is back. */
export function decision(taken: boolean, tokens: number, options: RateOptions): RateDecision {
  if (taken) return { ok: true };
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / options.rate)) };
}

/** Milliseconds a bucket takes to fill from empty: after that, no bucket and a full one behave alike. */
export function refillMs(options: RateOptions): number {
  return Math.ceil((options.burst / options.rate) * 1000);
}

export function createMemoryRateLimiter(clock: Clock, options: RateOptions): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const idleMs = refillMs(options);
  let sweptAt = clock.nowMs();

  function sweep(now: number) {
    if (now - sweptAt < 60_000) return;
    sweptAt = now;
    for (const [id, b] of buckets) if (now - b.at > idleMs) buckets.delete(id);
  }

  return {
    store: 'memory',
    async take(credentialId) {
      const now = clock.nowMs();
      sweep(now);
      const bucket = buckets.get(credentialId);
      const after = takeToken(bucket?.tokens ?? options.burst, bucket ? now - bucket.at : 0, options);
      buckets.set(credentialId, { tokens: after.tokens, at: Math.max(bucket?.at ?? now, now) });
      return decision(after.taken, after.tokens, options);
    },
    async close() {},
    clear() {
      buckets.clear();
    },
  };
}

/**
 * A shared store that fails (the database or Redis unreachable) must not turn every places call into an
 * error: the process falls back to its own buckets for that call, and says so at most once a minute.
 */
export function withLocalFallback(
  shared: RateLimiter,
  local: RateLimiter,
  clock: Clock,
  log: Logger,
): RateLimiter {
  let warnedAt = Number.NEGATIVE_INFINITY;
  return {
    store: shared.store,
    async take(credentialId) {
      try {
        return await shared.take(credentialId);
      } catch (error) {
        const now = clock.nowMs();
        if (now - warnedAt >= 60_000) {
          warnedAt = now;
          log.error(
            { err: error, store: shared.store },
            `places: the rate limit's ${shared.store} store failed; limiting in this process until it answers again`,
          );
        }
        return local.take(credentialId);
      }
    },
    close: () => shared.close(),
    clear: () => shared.clear?.(),
  };
}
