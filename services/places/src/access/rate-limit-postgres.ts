import type { Clock, Queryable } from '@cairn/kit';
import { type RateOptions, refillMs } from './rate-limit.ts';
import type { SharedBuckets } from './rate-limit-lease.ts';

// The bucket after refill, from the row as it was (b.*): $2 burst, $3 now (ms), $4 rate, $7 tokens given back.
// A host whose clock is behind another's adds nothing (GREATEST 0) and does not move the bucket's time back.
const REFILLED =
  'LEAST($2::float8, b.tokens + $7::float8 + GREATEST(0, $3::bigint - b.at_ms)::float8 / 1000 * $4::float8)';
/** takeFromBucket (rate-limit-lease.ts) in SQL: $5 tokens for the calls waiting, $6 ahead of calls. */
const granted = (refilled: string) => {
  const now = `LEAST($5::int, floor(${refilled})::int)`;
  return `(${now} + LEAST($6::int, GREATEST(0, floor(${refilled} - ${now} - $2::float8 / 2)::int)))`;
};

/** One statement per call: the row is locked while it is updated, so concurrent calls from any host queue. */
const TAKE = `INSERT INTO places_rate_buckets AS b (credential_id, tokens, at_ms, taken, granted)
VALUES ($1, $2::float8 - ${granted('$2::float8')}, $3::bigint, ${granted('$2::float8')} >= 1, ${granted('$2::float8')})
ON CONFLICT (credential_id) DO UPDATE SET
  granted = ${granted(REFILLED)},
  taken = ${granted(REFILLED)} >= 1,
  tokens = ${REFILLED} - ${granted(REFILLED)},
  at_ms = GREATEST(b.at_ms, $3::bigint)
RETURNING granted, tokens`;

/** Token buckets in the table places_rate_buckets, shared by every process on the database. */
export function createPostgresBuckets(db: Queryable, clock: Clock, options: RateOptions): SharedBuckets {
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
    async takeUpTo(credentialId, { want, ahead, giveBack }) {
      const now = clock.nowMs();
      sweep(now);
      const { rows } = await db.query<{ granted: number; tokens: number }>(
        TAKE,
        [credentialId, options.burst, now, options.rate, want, ahead, giveBack],
        { prepare: true },
      );
      return { granted: rows[0]!.granted, tokens: rows[0]!.tokens };
    },
    async close() {},
  };
}
