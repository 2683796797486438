// Search relevance: the judged query set (services/places/test/relevance/judged.json, rules in its README)
// against a real Cairn places server, over HTTP. Prints nDCG@10 overall and per query family, the 10 worst
// queries, and the latency (p50, p90, max) and CPU time of its searches beside nDCG.
//
//   node --import tsx bench/places-relevance.ts                 PGlite, the demo set (20,000 places, demo seed)
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres PLACES_RELEVANCE_COUNT=1000000 \
//     node --import tsx bench/places-relevance.ts                PostgreSQL: database h5_relevance_<count>,
//                                                               reused when it holds that many places
// PLACES_RELEVANCE_CITIES=1 generates only around the judged set's cities (PLACES_RELEVANCE_COUNT places).
import { createIdentity, createOrganization, createServiceKey, identityMigrations } from '@cairn/identity';
import { createApp, createLogger, createMetrics, loadConfig, systemClock } from '@cairn/kit';
import { createPlaces, DEMO_SEED, gazetteer, generatePlaces, placesMigrations } from '@cairn/places';
import { judge, loadJudged, summarize } from '../services/places/test/relevance/judge.ts';
import { benchDb } from './places-bench-db.ts';
import { quantile } from './report.ts';

const count = Number(process.env.PLACES_RELEVANCE_COUNT ?? 20_000);
const onlyJudgedCities = process.env.PLACES_RELEVANCE_CITIES === '1';
const queries = loadJudged();

const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', PORT: '0', CAIRN_DATA_DIR: '/nonexistent' });
const db = await benchDb(
  `h5_relevance_${count}${onlyJudgedCities ? '_cities' : ''}`,
  [...identityMigrations, ...placesMigrations],
  count,
);
const deps = {
  config,
  db,
  clock: systemClock,
  log: createLogger('silent'),
  metrics: createMetrics({ defaultMetrics: false }),
};
const identity = createIdentity(deps);
const places = createPlaces(deps, {
  authenticate: identity.authenticate,
  config: { rateLimit: 10_000_000, rateBurst: 10_000_000, demoCount: 0 },
});
await identity.start();
await places.start();
if (!db.reused) {
  const cities = onlyJudgedCities
    ? [...new Set(queries.map((q) => q.city))].map((name) => gazetteer().resolve(name)!)
    : undefined;
  const t = performance.now();
  await generatePlaces(db, {
    count,
    seed: count === 20_000 ? DEMO_SEED : 'relevance',
    batchSize: 10_000,
    ...(cities ? { cities } : {}),
  });
  await db.exec('ANALYZE places');
  console.log(`generated ${count} places in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
const org = await createOrganization(identity.deps, `Relevance ${Date.now()}`);
const { secret } = await createServiceKey(identity.deps, { organizationId: org.id });
const app = await createApp(deps, [identity.module, places.module]);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

let searches = 0;
let searchCpu = 0;
/** Wall time of each search, ms (one at a time, over loopback). */
const searchMs: number[] = [];
const ctx = {
  db,
  reference: places.deps.reference(),
  gazetteer: gazetteer(),
  async search(params: Record<string, string>) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const response = await fetch(`${base}/places/search?${new URLSearchParams(params)}`, {
      headers: { authorization: `Bearer ${secret}`, 'x-places-api-version': '2025-06-17' },
    });
    const body = (await response.json()) as { results?: Record<string, unknown>[]; message?: string };
    searchMs.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    searchCpu += used.user + used.system;
    searches++;
    if (response.status !== 200)
      throw new Error(`search ${JSON.stringify(params)}: ${response.status} ${body.message}`);
    return body.results ?? [];
  },
};

const judgements = [];
for (const q of queries) judgements.push(await judge(ctx, q));
const summary = summarize(judgements);

const f3 = (n: number) => n.toFixed(3);
console.log(
  `\nplaces relevance — ${db.engine}, ${count} places${onlyJudgedCities ? ' (judged cities only)' : ''}, ${queries.length} judged queries over ${new Set(queries.map((q) => q.city)).size} cities`,
);
// Relevance must not regress for speed, nor speed for relevance: the latency of the same searches beside it.
const sortedMs = [...searchMs].sort((a, b) => a - b);
const pct = (p: number) => quantile(sortedMs, p) ?? 0;
console.log(
  `nDCG@10 ${f3(summary.overall)} over ${summary.scored} queries (${summary.nothingToFind} had no graded place in the data); latency of these searches, one at a time: p50 ${pct(0.5).toFixed(1)} ms, p90 ${pct(0.9).toFixed(1)} ms, max ${pct(1).toFixed(1)} ms`,
);
console.log('\nfamily                      nDCG@10  queries');
for (const f of summary.families)
  console.log(`${f.family.padEnd(28)}${f3(f.ndcg).padStart(7)}  ${f.queries}`);
console.log('\nworst 10: nDCG  query (city): grades of the results | ideal');
for (const j of summary.worst) {
  console.log(
    `  ${f3(j.ndcg!)}  ${JSON.stringify(j.query)} (${j.city}): [${j.grades.join(',')}] | [${j.ideal.join(',')}]  ${j.names.slice(0, 3).join('; ')}`,
  );
}
console.log(
  `\nthis process's CPU per search (client + server in one process): ${(searchCpu / searches / 1000).toFixed(2)} ms over ${searches} searches`,
);
await app.close();
await places.stop();
await identity.stop();
await db.close();
