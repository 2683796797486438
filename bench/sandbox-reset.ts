// Benchmark: what a sandbox reset costs (issue 21) — restoring a snapshot of every Cairn table after a test
// changed a little (one organization, one managed user), against the peer a test suite would otherwise use
// for a clean state: a fresh copy of the whole database (PGlite's clone() of an in-memory instance; on
// PostgreSQL, CREATE DATABASE … TEMPLATE and DROP). Both hold the same data: the demo places (20,000 by
// default, as cairn serve seeds) and the reference data. Paired rounds; prints medians and the ratio.
//
// Run: npx tsx bench/sandbox-reset.ts [places, default 20000] [rounds, default 10]
//      DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/sandbox-reset.ts
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { edgeMigrations } from '@cairn/edge';
import { identityMigrations } from '@cairn/identity';
import { type Db, migrate, openPostgres } from '@cairn/kit';
import { generatePlaces, placesMigrations } from '@cairn/places';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { markSandboxDatabase } from '../apps/cli/src/sandbox/database.ts';
import { SnapshotStore } from '../apps/cli/src/sandbox/snapshots.ts';
import { pgliteOptions, wrapPglite } from '../packages/kit/src/db/pglite.ts';
import { report } from './report.ts';

const places = Number(process.argv[2] ?? 20_000);
const rounds = Number(process.argv[3] ?? 10);
const url = process.env.DATABASE_URL;
const migrations = [...identityMigrations, ...placesMigrations, ...edgeMigrations];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

async function fill(db: Db) {
  await migrate(db, migrations);
  await markSandboxDatabase(db);
  await generatePlaces(db, { count: places, seed: 'sandbox-bench' });
}

/** What a test typically leaves behind: an organization and a managed user. */
async function dirty(db: Db) {
  const org = randomUUID();
  await db.query('INSERT INTO organizations (id, name, created_at) VALUES ($1, $2, now())', [
    org,
    `Org ${org}`,
  ]);
  await db.query(
    "INSERT INTO users (kind, organization_id, first_name, created_at) VALUES ('managed', $1, 'Ada', now())",
    [org],
  );
}

let peerName: string;
let ours: Db;
let peer: () => Promise<void>;
let cleanup: () => Promise<void>;

if (url) {
  peerName = 'CREATE DATABASE … TEMPLATE + DROP';
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const at = (name: string) => {
    const u = new URL(url);
    u.pathname = `/${name}`;
    return u.toString();
  };
  for (const name of ['cairn_bench_sandbox', 'cairn_bench_sandbox_tpl', 'cairn_bench_sandbox_copy']) {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  }
  await admin.query('CREATE DATABASE cairn_bench_sandbox_tpl');
  const tpl = openPostgres(at('cairn_bench_sandbox_tpl'), { max: 2 });
  await fill(tpl);
  await tpl.close();
  await admin.query('CREATE DATABASE cairn_bench_sandbox TEMPLATE cairn_bench_sandbox_tpl');
  ours = openPostgres(at('cairn_bench_sandbox'), { max: 2 });
  peer = async () => {
    await admin.query('CREATE DATABASE cairn_bench_sandbox_copy TEMPLATE cairn_bench_sandbox_tpl');
    await admin.query('DROP DATABASE cairn_bench_sandbox_copy');
  };
  cleanup = async () => {
    await ours.close();
    for (const name of ['cairn_bench_sandbox', 'cairn_bench_sandbox_tpl'])
      await admin.query(`DROP DATABASE ${name}`);
    await admin.end();
  };
} else {
  peerName = 'PGlite clone()';
  const instance = await PGlite.create(pgliteOptions);
  ours = wrapPglite(instance);
  await fill(ours);
  peer = async () => {
    const copy = await instance.clone();
    await copy.close();
  };
  cleanup = () => ours.close();
}

const store = new SnapshotStore(ours);
const takeStart = process.hrtime.bigint();
const taken = await store.take('base', new Date());
const takeMs = ms(takeStart);
const oursMs: number[] = [];
const peerMs: number[] = [];
const againMs: number[] = [];
for (let round = 0; round < rounds; round++) {
  await dirty(ours);
  let start = process.hrtime.bigint();
  await store.restore('base');
  oursMs.push(ms(start));
  start = process.hrtime.bigint();
  await peer();
  peerMs.push(ms(start));
  // Taking the same snapshot again after a small change copies only the tables written.
  await dirty(ours);
  start = process.hrtime.bigint();
  await store.take('base', new Date());
  againMs.push(ms(start));
}
const check = await ours.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations');
if (check.rows[0]!.n !== rounds)
  throw new Error('the restores and takes did not keep one organization a round');
await cleanup();

const engine = url ? 'PostgreSQL' : 'PGlite';
const [l1, l5] = loadavg();
console.log(
  `sandbox reset on ${engine}, ${places.toLocaleString('en-US')} places (${taken.tables} tables, ${taken.rows.toLocaleString('en-US')} rows), ${rounds} rounds, load ${l1!.toFixed(1)}/${l5!.toFixed(1)}`,
);
console.log(`  snapshot taken once:            ${takeMs.toFixed(0)} ms`);
console.log(`  restore after a small change:   median ${median(oursMs).toFixed(1)} ms`);
console.log(`  snapshot again after one:       median ${median(againMs).toFixed(1)} ms`);
console.log(`  ${peerName.padEnd(30)}  median ${median(peerMs).toFixed(1)} ms`);
console.log(`  ratio (restore / peer):         ${(median(oursMs) / median(peerMs)).toFixed(2)}`);
report({
  bench: 'sandbox-reset',
  name: `reset after a small change, ${engine}, ${places} places`,
  unit: 'ms',
  ours: median(oursMs),
  peer: { name: peerName, value: median(peerMs) },
  lowerIsBetter: true,
});
