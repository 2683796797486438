import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Logger } from '../log.ts';
import { type Migration, migrate, migrationsDigest } from './migrations.ts';
import { pgliteOptions, wrapPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';
import type { Db } from './types.ts';

/**
 * Fresh, migrated databases for tests, cheaply: a fresh PGlite costs seconds (initdb), so we migrate one
 * template per process and clone it; on PostgreSQL (TEST_DATABASE_URL or DATABASE_URL set) we keep a
 * template database per migration digest and CREATE DATABASE … TEMPLATE it for each test.
 */
const pgliteTemplates = new Map<string, Promise<PGlite>>();

export function testDatabaseUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;
}

/** A test database; on PostgreSQL `url` lets other processes connect to the same database. */
export type TestDb = Db & { url?: string };

/** `log` receives what the PostgreSQL pool reports (a lost connection, a failed ROLLBACK). */
export async function createTestDb(migrations: readonly Migration[], log?: Logger): Promise<TestDb> {
  const url = testDatabaseUrl();
  return url ? createPostgresTestDb(url, migrations, log) : createPgliteTestDb(migrations);
}

async function createPgliteTestDb(migrations: readonly Migration[]): Promise<Db> {
  const digest = migrationsDigest(migrations);
  let template = pgliteTemplates.get(digest);
  if (!template) {
    template = (async () => {
      const instance = await PGlite.create(pgliteOptions);
      await migrate(wrapPglite(instance), migrations);
      return instance;
    })();
    pgliteTemplates.set(digest, template);
  }
  const clone = await (await template).clone();
  return wrapPglite(clone);
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

const TEMPLATE_LOCK = 4_242_002;

async function createPostgresTestDb(
  url: string,
  migrations: readonly Migration[],
  log: Logger | undefined,
): Promise<TestDb> {
  const template = `cairn_tpl_${migrationsDigest(migrations)}`;
  const name = `cairn_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
      if (exists.rowCount === 0) {
        const building = `${template}_building`;
        await admin.query(`DROP DATABASE IF EXISTS ${building}`);
        await admin.query(`CREATE DATABASE ${building}`);
        const db = openPostgres(withDatabase(url, building), { max: 1 });
        try {
          await migrate(db, migrations);
        } finally {
          await db.close();
        }
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
      }
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  } finally {
    await admin.end();
  }
  const db = openPostgres(withDatabase(url, name), { max: 5, ...(log ? { log } : {}) });
  return {
    ...db,
    url: withDatabase(url, name),
    async close() {
      await db.close();
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}
