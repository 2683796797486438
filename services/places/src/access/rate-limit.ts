import type { Clock } from '@cairn/kit';

/**
 * A token bucket per credential: `rate` requests a second on average, bursts of up to `burst`. Buckets live in
 * the process (each process of a scaled-out deployment enforces the limit for the calls it serves); idle
 * buckets are dropped, since a full bucket and no bucket behave alike.
 */
export interface RateLimiter {
  /** Takes one token; when there is none, how many seconds until there will be. */
  take(credentialId: string): { ok: true } | { ok: false; retryAfterSeconds: number };
}

export function createRateLimiter(clock: Clock, options: { rate: number; burst: number }): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refillMs = (options.burst / options.rate) * 1000;
  let sweptAt = clock.nowMs();

  function sweep(now: number) {
    if (now - sweptAt < 60_000) return;
    sweptAt = now;
    for (const [id, b] of buckets) if (now - b.at > refillMs) buckets.delete(id);
  }

  return {
    take(credentialId) {
      const now = clock.nowMs();
      sweep(now);
      const bucket = buckets.get(credentialId) ?? { tokens: options.burst, at: now };
      bucket.tokens = Math.min(options.burst, bucket.tokens + ((now - bucket.at) / 1000) * options.rate);
      bucket.at = now;
      buckets.set(credentialId, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { ok: true };
      }
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / options.rate)) };
    },
  };
}
