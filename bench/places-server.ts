// The places benchmark's server process: a fresh database with N generated places, served on loopback.
// Prints one JSON line {port, key, generateMs, exportMs, count, cities} and serves until killed.
// PLACES_BENCH_REUSE=1 (PostgreSQL): an existing benchmark database with the same count of places is served
// as it is (generateMs null, no CSV export). PLACES_BENCH_DB names the database (default cairn_bench_places),
// so a 10M set can live beside the 1M one. PLACES_BENCH_RATE_STORE (memory, database or redis) picks the rate
// limit's store, to measure what the shared one costs a search. PLACES_BENCH_AT (an ISO time) sets the server's
// clock to that instant when it starts, running on from there: open_now is then asked at the same hours of the
// day for every size measured, whatever the time each size's run starts.
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { createIdentity, createOrganization, createServiceKey, identityMigrations } from '@cairn/identity';
import { type Clock, createApp, createLogger, createMetrics, loadConfig, systemClock } from '@cairn/kit';
import { createPlaces, gazetteer, generatePlaces, placesMigrations } from '@cairn/places';
import { BENCH_PREFIX, benchDb, exportCsv } from './places-bench-db.ts';
import { quantile } from './report.ts';

const count = Number(process.env.PLACES_BENCH_COUNT ?? 1_000_000);
const csv = process.env.PLACES_BENCH_CSV;
const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', PORT: '0', CAIRN_DATA_DIR: '/nonexistent' });
const reuse = process.env.PLACES_BENCH_REUSE === '1' ? count : undefined;
const db = await benchDb(
  process.env.PLACES_BENCH_DB ?? `${BENCH_PREFIX}bench_places`,
  [...identityMigrations, ...placesMigrations],
  reuse,
);
/** The system clock, moved to start at PLACES_BENCH_AT when given. */
function benchClock(at: string | undefined): Clock {
  if (at === undefined) return systemClock;
  const start = Date.parse(at);
  if (Number.isNaN(start)) throw new Error(`PLACES_BENCH_AT: not a time: ${at}`);
  const offset = start - Date.now();
  return { now: () => new Date(Date.now() + offset), nowMs: () => Date.now() + offset };
}
const deps = {
  config,
  db,
  clock: benchClock(process.env.PLACES_BENCH_AT),
  log: createLogger('silent'),
  metrics: createMetrics({ defaultMetrics: false }),
};
const identity = createIdentity(deps);
const places = createPlaces(deps, {
  authenticate: identity.authenticate,
  config: {
    rateLimit: 10_000_000,
    rateBurst: 10_000_000,
    demoCount: 0,
    ...(process.env.PLACES_BENCH_RATE_STORE
      ? { rateStore: process.env.PLACES_BENCH_RATE_STORE as 'memory' }
      : {}),
  },
});
await identity.start();
await places.start();
let last = 0;
let generateMs: number | null = null;
if (!db.reused) {
  const generated = await generatePlaces(db, {
    count,
    seed: 'bench',
    batchSize: 10_000,
    onProgress: (done) => {
      if (done - last >= 100_000) {
        last = done;
        process.stderr.write(`generated ${done}\n`);
      }
    },
  });
  generateMs = generated.ms;
  await db.exec('ANALYZE places');
}
let exportMs = 0;
if (csv && !db.reused) {
  const t = performance.now();
  await exportCsv(db, csv);
  exportMs = performance.now() - t;
}
const org = await createOrganization(identity.deps, `Bench ${Date.now()}`);
const { secret } = await createServiceKey(identity.deps, { organizationId: org.id });
const app = await createApp(deps, [identity.module, places.module]);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
const cities = [...gazetteer().cities]
  .sort((a, b) => b.population - a.population)
  .slice(0, 100)
  .map((c) => ({ name: `${c.name}, ${c.country}`, latitude: c.latitude, longitude: c.longitude }));
const restaurant = [...places.deps.reference().categories.values()].find(
  (c) => c.label === 'Dining and Drinking > Restaurant',
)!.id;
process.stdout.write(
  `${JSON.stringify({ port, key: secret, generateMs, exportMs, count, cities, restaurant, engine: db.engine })}\n`,
);
process.on('SIGTERM', () => {
  void app.close().then(async () => {
    await places.stop();
    await identity.stop();
    await db.close();
    process.exit(0);
  });
});

// Stalls of this process, for the benchmark's open loop (over IPC): 'stalls' answers with the garbage
// collector's pauses, the event loop's delay and the time requests spent here since the last 'stalls',
// and starts counting again.
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
loopDelay.enable();
let gc = { count: 0, totalMs: 0, maxMs: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gc.count++;
    gc.totalMs += entry.duration;
    gc.maxMs = Math.max(gc.maxMs, entry.duration);
  }
}).observe({ entryTypes: ['gc'] });
// The time each request spent in this process: from node's 'request' (its head parsed) to the answer's
// last byte handed to the socket. Beside the client's latency it tells the server's share of a tail
// from the rest (the load generator's lag, the kernel, the scheduling of processes on the cores).
let served: number[] = [];
app.server.on('request', (_req, res) => {
  const start = performance.now();
  res.once('finish', () => served.push(performance.now() - start));
});
process.on('message', (message) => {
  if (message !== 'stalls') return;
  const sorted = served.sort((a, b) => a - b);
  process.send?.({
    gc,
    loopP99Ms: loopDelay.percentile(99) / 1e6,
    loopMaxMs: loopDelay.max / 1e6,
    servedP99Ms: quantile(sorted, 0.99) ?? 0,
    servedMaxMs: sorted.at(-1) ?? 0,
  });
  loopDelay.reset();
  gc = { count: 0, totalMs: 0, maxMs: 0 };
  served = [];
});
