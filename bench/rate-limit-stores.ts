// Benchmark: what the places rate limit costs per call in each store (issue 19, point 1) — the in-process
// bucket, the PostgreSQL table (one upsert) and Redis (one script call). Paired rounds: each round measures the
// three stores one after the other, on 1000 credentials in turn; prints medians over rounds of the time one call
// adds when calls come one at a time, and of calls/s with 32 in flight (as a busy host's requests are).
//
// Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 \
//        npx tsx bench/rate-limit-stores.ts [rounds, default 5]
import { cpus, loadavg } from 'node:os';
import { systemClock } from '@cairn/kit';
import { placesMigrations } from '@cairn/places';
import { createMemoryRateLimiter, type RateLimiter } from '../services/places/src/access/rate-limit.ts';
import { createLeasedRateLimiter } from '../services/places/src/access/rate-limit-lease.ts';
import { createPostgresBuckets } from '../services/places/src/access/rate-limit-postgres.ts';
import { createRedisBuckets } from '../services/places/src/access/rate-limit-redis.ts';
import { freshDb } from './places-bench-db.ts';

const rounds = Number(process.argv[2] ?? 5);
const redisUrl = process.env.REDIS_URL;
if (!process.env.DATABASE_URL || !redisUrl) {
  console.error('set DATABASE_URL (a PostgreSQL server) and REDIS_URL: this compares the two shared stores');
  process.exit(2);
}
const CALLS = 2000;
const IN_FLIGHT = 32;
const credentials = Array.from(
  { length: 1000 },
  (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
);
const options = { rate: 1_000_000, burst: 1_000_000 }; // never refuses: the cost of a call, not of a 429
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function sequentialUs(limiter: RateLimiter): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) await limiter.take(credentials[i % credentials.length]!);
  return Number(process.hrtime.bigint() - start) / 1000 / CALLS;
}

async function concurrentPerSecond(limiter: RateLimiter): Promise<number> {
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < CALLS) await limiter.take(credentials[next++ % credentials.length]!);
    }),
  );
  return CALLS / (Number(process.hrtime.bigint() - start) / 1e9);
}

const db = await freshDb('cairn_bench_rate', placesMigrations);
const stores: Record<string, RateLimiter> = {
  memory: createMemoryRateLimiter(systemClock, options),
  postgresql: createLeasedRateLimiter(createPostgresBuckets(db, systemClock, options), systemClock, options),
  redis: createLeasedRateLimiter(
    createRedisBuckets(redisUrl, systemClock, { ...options, keyPrefix: `cairn:bench:${process.pid}:` }),
    systemClock,
    options,
  ),
};
// Warm up: connections open, statements prepared, the script loaded.
for (const limiter of Object.values(stores)) {
  for (let i = 0; i < 20 && limiter.store === 'redis'; i++) {
    try {
      await limiter.take('warm-up');
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  await sequentialUs(limiter);
}
const seq: Record<string, number[]> = {};
const conc: Record<string, number[]> = {};
for (let r = 0; r < rounds; r++) {
  for (const [name, limiter] of Object.entries(stores)) {
    (seq[name] ??= []).push(await sequentialUs(limiter));
    (conc[name] ??= []).push(await concurrentPerSecond(limiter));
  }
}
console.log(`command: npx tsx bench/rate-limit-stores.ts ${rounds}`);
console.log(
  `machine: ${cpus().length} cores, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(`${rounds} paired rounds of ${CALLS} calls over ${credentials.length} credentials each`);
for (const name of Object.keys(stores)) {
  console.log(
    `${name.padEnd(10)}  one at a time: median ${median(seq[name]!).toFixed(1).padStart(7)} µs/call   ` +
      `${IN_FLIGHT} in flight: median ${median(conc[name]!).toFixed(0).padStart(7)} calls/s`,
  );
}
for (const limiter of Object.values(stores)) await limiter.close();
await db.close();
