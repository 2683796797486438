import type { Clock, Queryable } from '@cairn/kit';
import { decision, type RateLimiter, type RateOptions, refillMs } from './rate-limit.ts';

// The bucket after refill, from the row as it was (b.*): $2 burst, $3 now (ms), $4 rate. A host whose clock is
// behind another's adds nothing (GREATEST 0) and does not move the bucket's time back.
const REFILLED =
  'LEAST($2::float8, b.tokens + GREATEST(0, $3::bigint - b.at_ms)::float8 / 1000 * $4::float8)';

/** One statement per call: the row is locked while it is updated, so concurrent calls from any host queue. */
const TAKE = `INSERT INTO places_rate_buckets AS b (credential_id, tokens, at_ms, taken)
VALUES ($1, $2::float8 - 1, $3::bigint, true)
ON CONFLICT (credential_id) DO UPDATE SET
  taken = ${REFILLED} >= 1,
  tokens = ${REFILLED} - CASE WHEN ${REFILLED} >= 1 THEN 1 ELSE 0 END,
  at_ms = GREATEST(b.at_ms, $3::bigint)
RETURNING taken, tokens`;

/** Token buckets in the table places_rate_buckets, shared by every process on the database. */
export function createPostgresRateLimiter(db: Queryable, clock: Clock, options: RateOptions): RateLimiter {
  const idleMs = refillMs(options);
  let sweptAt = clock.nowMs();

  /** Rows idle longer than a refill are full buckets: dropped once a minute, off the request's path. */
  function sweep(now: number) {
    if (now - sweptAt < 60_000) return;
    sweptAt = now;
    db.query('DELETE FROM places_rate_buckets WHERE at_ms < $1', [now - idleMs]).catch(() => {
      sweptAt = Number.NEGATIVE_INFINITY; // try again on the next call
    });
  }

  return {
    store: 'database',
    async take(credentialId) {
      const now = clock.nowMs();
      sweep(now);
      const { rows } = await db.query<{ taken: boolean; tokens: number }>(
        TAKE,
        [credentialId, options.burst, now, options.rate],
        { prepare: true },
      );
      return decision(rows[0]!.taken, rows[0]!.tokens, options);
    },
    async close() {},
  };
}
