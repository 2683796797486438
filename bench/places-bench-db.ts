// Helpers for the places benchmark: a fresh database on either engine, and a CSV export in the dataset's format.
import { createWriteStream } from 'node:fs';
import { type Db, type Migration, migrate, openPostgres } from '@cairn/kit';
import { OS_COLUMNS } from '@cairn/places';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { pgliteOptions, wrapPglite } from '../packages/kit/src/db/pglite.ts';

/** Names of the benchmark's databases start with this (PLACES_BENCH_PREFIX, default cairn_), so that several
 * people benchmarking on one server never drop each other's. */
export const BENCH_PREFIX = process.env.PLACES_BENCH_PREFIX ?? 'cairn_';

/** Connections to PostgreSQL (PLACES_BENCH_POOL, default 10 as the server's default). */
const POOL = Number(process.env.PLACES_BENCH_POOL ?? 10);

/** PostgreSQL when DATABASE_URL is set (a fresh database `name` on that server), otherwise in-memory PGlite. */
export async function freshDb(name: string, migrations: readonly Migration[]): Promise<Db> {
  return benchDb(name, migrations);
}

/**
 * Like freshDb, but on PostgreSQL with `reuseCount` an existing database `name` holding exactly that many
 * places is kept as it is (migrated only), so the search figures can be re-measured without generating again.
 * `reused` says which happened.
 */
export async function benchDb(
  name: string,
  migrations: readonly Migration[],
  reuseCount?: number,
): Promise<Db & { reused?: boolean }> {
  const url = process.env.DATABASE_URL;
  let db: Db;
  if (url) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const u = new URL(url);
    u.pathname = `/${name}`;
    if (reuseCount !== undefined) {
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (exists.rowCount === 1) {
        const existing = openPostgres(u.toString(), { max: POOL });
        const held = await existing
          .query<{ n: number }>('SELECT count(*)::int AS n FROM places')
          .then((r) => r.rows[0]!.n)
          .catch(() => -1);
        if (held === reuseCount) {
          await admin.end();
          await migrate(existing, migrations);
          return Object.assign(existing, { reused: true });
        }
        await existing.close();
      }
    }
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    db = openPostgres(u.toString(), { max: POOL });
  } else {
    db = wrapPglite(await PGlite.create(pgliteOptions));
  }
  await migrate(db, migrations);
  return db;
}

/** The open places dataset's own columns, as `cairn places import` reads them. */
const COLUMNS = OS_COLUMNS;

const cell = (v: unknown) => {
  if (v === null || v === undefined) return '';
  const s = Array.isArray(v) ? JSON.stringify(v) : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** Writes every place as a CSV file with the dataset's column names (arrays as JSON). */
export async function exportCsv(db: Db, path: string): Promise<number> {
  const out = createWriteStream(path);
  out.write(`${COLUMNS.join(',')}\n`);
  let after = '';
  let n = 0;
  for (;;) {
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT ${COLUMNS.map((c) => (c.startsWith('date_') ? `to_char(${c}, 'YYYY-MM-DD') AS ${c}` : c)).join(', ')}
         FROM places WHERE fsq_place_id > $1 ORDER BY fsq_place_id LIMIT 20000`,
      [after],
    );
    if (rows.length === 0) break;
    const text = rows.map((r) => COLUMNS.map((c) => cell(r[c])).join(',')).join('\n');
    if (!out.write(`${text}\n`)) await new Promise<void>((ok) => out.once('drain', () => ok()));
    after = rows[rows.length - 1]!.fsq_place_id as string;
    n += rows.length;
  }
  await new Promise<void>((ok, fail) => out.end((error?: Error | null) => (error ? fail(error) : ok())));
  return n;
}
