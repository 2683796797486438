// Search relevance over HTTP against a real Cairn places server, on two judged sets:
//  - the world set (services/places/test/relevance/world.json, rules in docs/places-relevance.md): everyday
//    queries in 16 languages around 46 cities of 39 countries, sent with near= as people write the city;
//    P@5 and nDCG@10 overall, per language, per country, and the worst queries;
//  - the first set (judged.json, issue 20): nDCG@10 per family, searched with ll and radius 5000.
//
//   node --import tsx bench/places-relevance.ts        the first start's data: the demo database built at
//                                                      install (apps/cli/dist/demo-database, built now if
//                                                      missing), on PGlite, as `npm start` serves it
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/places-relevance.ts --1m
//                                                      1M generated places on PostgreSQL (database
//                                                      h5_relevance_1000000, reused when it holds them;
//                                                      generating takes about 40 minutes on a quiet machine)
// --world judges the world set alone; --dump=dir judges that demo database (an older build's).
// PLACES_RELEVANCE_COUNT=n (with --1m) generates n places instead; PLACES_RELEVANCE_CITIES=1 only around the
// first set's cities.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIdentity, createOrganization, createServiceKey, identityMigrations } from '@cairn/identity';
import {
  createApp,
  createLogger,
  createMetrics,
  type Db,
  loadConfig,
  migrate,
  openPglite,
  systemClock,
} from '@cairn/kit';
import { createPlaces, gazetteer, generatePlaces, placesMigrations } from '@cairn/places';
import { buildDemoDatabase } from '../apps/cli/src/demo-database.ts';
import { judge, loadJudged, summarize } from '../services/places/test/relevance/judge.ts';
import {
  groupWorld,
  judgeWorld,
  loadWorld,
  type WorldJudgement,
} from '../services/places/test/relevance/world.ts';
import { benchDb } from './places-bench-db.ts';
import { quantile } from './report.ts';

const generated = process.argv.includes('--1m');
const count = Number(process.env.PLACES_RELEVANCE_COUNT ?? 1_000_000);
const onlyJudgedCities = process.env.PLACES_RELEVANCE_CITIES === '1';
const firstSet = loadJudged();
const world = loadWorld();
const migrations = [...identityMigrations, ...placesMigrations];

/** `--dump=dir`: judge that demo database instead of the one for the current code (an older build's). */
const dumpArg = process.argv.find((a) => a.startsWith('--dump='))?.slice('--dump='.length);

async function firstStartData(): Promise<{ db: Db; label: string; cleanup: () => void }> {
  const file = dumpArg ?? (await buildDemoDatabase())?.dir;
  if (!file) throw new Error('PLACES_DEMO_COUNT=0: no first-start data to judge');
  const dir = mkdtempSync(join(tmpdir(), 'cairn-relevance-'));
  const db = await openPglite(dir, { initialDataDir: file });
  await migrate(db, migrations);
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM places');
  return {
    db,
    label: `first-start data (${rows[0]!.n.toLocaleString('en-US')} places, PGlite, ${file.split('/').at(-1)})`,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function generatedData(): Promise<{ db: Db; label: string; cleanup: () => void }> {
  const db = await benchDb(`h5_relevance_${count}${onlyJudgedCities ? '_cities' : ''}`, migrations, count);
  return { db, label: `${count.toLocaleString('en-US')} generated places (${db.engine})`, cleanup: () => {} };
}

const { db, label, cleanup } = generated ? await generatedData() : await firstStartData();
const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', PORT: '0', CAIRN_DATA_DIR: '/nonexistent' });
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
if (generated && !(db as { reused?: boolean }).reused) {
  const cities = onlyJudgedCities
    ? [...new Set(firstSet.map((q) => q.city))].map((name) => gazetteer().resolve(name)!)
    : undefined;
  const t = performance.now();
  await generatePlaces(db, { count, seed: 'relevance', batchSize: 10_000, ...(cities ? { cities } : {}) });
  await db.exec('ANALYZE places');
  console.log(`generated ${count} places in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
const org = await createOrganization(identity.deps, `Relevance ${Date.now()}`);
const { secret } = await createServiceKey(identity.deps, { organizationId: org.id });
const app = await createApp(deps, [identity.module, places.module]);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

/** Wall time of each search, ms (one at a time, over loopback). */
const searchMs: number[] = [];
async function search(params: Record<string, string>) {
  const started = performance.now();
  const response = await fetch(`${base}/places/search?${new URLSearchParams(params)}`, {
    headers: { authorization: `Bearer ${secret}`, 'x-places-api-version': '2025-06-17' },
  });
  const body = (await response.json()) as Record<string, unknown>;
  searchMs.push(performance.now() - started);
  return { status: response.status, body };
}
const ctx = { db, reference: places.deps.reference(), gazetteer: gazetteer() };

const f3 = (n: number) => n.toFixed(3);
console.log(`\nplaces relevance — ${label}`);

// The world set.
const judged: WorldJudgement[] = [];
for (const q of world) judged.push(await judgeWorld({ ...ctx, search }, q));
const scored = judged.filter((j) => j.relevant > 0);
const [all] = groupWorld(judged, () => 'all');
const refused = judged.filter((j) => j.error);
const empty = scored.filter((j) => j.hits.length === 0);
console.log(
  `\nworld set: ${world.length} queries, ${new Set(world.map((q) => q.country)).size} countries, ${new Set(world.map((q) => q.language)).size} languages; ${scored.length} with relevant places in the city (${judged.length - scored.length} with none, left out)`,
);
console.log(
  `P@5 ${f3(all?.p5 ?? 0)}  nDCG@10 ${f3(all?.ndcg ?? 0)}  (empty answers with something to find: ${empty.length}; refused: ${refused.length})`,
);
const table = (title: string, by: (j: WorldJudgement) => string) => {
  console.log(`\n${title.padEnd(24)}   P@5  nDCG@10  queries`);
  for (const g of groupWorld(judged, by))
    console.log(`${g.key.padEnd(24)} ${f3(g.p5)}  ${f3(g.ndcg).padStart(7)}  ${g.queries}`);
};
table('language', (j) => j.query.language);
table('country', (j) => j.query.country);
table('kind', (j) => j.query.kind);
console.log('\nworst 20: P@5 nDCG  query near= (judged city): hits | first names');
for (const j of [...scored].sort((a, b) => a.p5 - b.p5 || a.ndcg - b.ndcg).slice(0, 20)) {
  console.log(
    `  ${f3(j.p5)} ${f3(j.ndcg)}  ${JSON.stringify(j.query.query)} near=${JSON.stringify(j.query.near)} (${j.query.city}, ${j.relevant} relevant): ${j.error ?? (j.hits.map((h) => (h ? '+' : '-')).join('') || 'empty')} | ${j.names.slice(0, 3).join('; ')}`,
  );
}
for (const j of refused) console.log(`  refused: ${JSON.stringify(j.query.near)}: ${j.error}`);

// The first set (issue 20), as before.
const firstJudged = [];
const searchOrThrow = async (params: Record<string, string>) => {
  const { status, body } = await search(params);
  if (status !== 200) throw new Error(`search ${JSON.stringify(params)}: ${status} ${body.message}`);
  return (body.results ?? []) as Record<string, unknown>[];
};
// --world: the world set alone (quicker).
const firstQueries = process.argv.includes('--world') ? [] : firstSet;
for (const q of firstQueries) firstJudged.push(await judge({ ...ctx, search: searchOrThrow }, q));
const summary = summarize(firstJudged);
console.log(
  `\nfirst set (judged.json, ll + radius 5000): nDCG@10 ${f3(summary.overall)} over ${summary.scored} of ${firstQueries.length} queries (${summary.nothingToFind} had nothing to find)`,
);
for (const f of summary.families)
  console.log(`  ${f.family.padEnd(26)}${f3(f.ndcg).padStart(7)}  ${f.queries}`);

const sortedMs = [...searchMs].sort((a, b) => a - b);
const pct = (p: number) => (quantile(sortedMs, p) ?? 0).toFixed(1);
console.log(
  `\nlatency of these ${searchMs.length} searches, one at a time: p50 ${pct(0.5)} ms, p90 ${pct(0.9)} ms, max ${pct(1)} ms`,
);
await app.close();
await places.stop();
await identity.stop();
await db.close();
cleanup();
