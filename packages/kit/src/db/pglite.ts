import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite, type PGliteInterface, type PGliteOptions } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { copyStatement } from './copy.ts';
import { acquireLock } from './lockfile.ts';
import type { Db, Queryable, QueryResult } from './types.ts';

const INT8_OID = 20;

export const pgliteOptions: PGliteOptions = {
  extensions: { btree_gist, cube, earthdistance, pg_trgm },
  // int8 ids fit in a JS number (< 2^53); node-postgres is configured the same way.
  parsers: { [INT8_OID]: (value: string) => Number(value) },
};

interface PGliteLike {
  query<R>(
    sql: string,
    params?: unknown[],
    options?: { blob?: Blob },
  ): Promise<{ rows: R[]; affectedRows?: number }>;
  exec(sql: string): Promise<unknown>;
}

function queryable(target: PGliteLike): Queryable {
  return {
    async query<R>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<R>> {
      const result = await wrap(() => target.query<R>(sql, [...params]));
      // PGlite reports affectedRows 0 for a SELECT; node-postgres counts the rows returned.
      return {
        rows: result.rows,
        rowCount: result.rows.length > 0 ? result.rows.length : (result.affectedRows ?? 0),
      };
    },
    async exec(sql: string) {
      await wrap(() => target.exec(sql));
    },
    async copyIn(table, columns, data) {
      // PGlite reads COPY's input from the blob passed with the statement.
      await wrap(() =>
        target.query(copyStatement(table, columns, "'/dev/blob'"), [], { blob: new Blob([data]) }),
      );
    },
  };
}

/** PGlite errors print pages of minified source when logged whole; keep message, code and position. */
async function wrap<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Error && 'code' in error) {
      const clean = new Error(error.message) as Error & {
        code?: unknown;
        detail?: unknown;
        constraint?: unknown;
      };
      clean.code = (error as { code: unknown }).code;
      clean.detail = (error as { detail?: unknown }).detail;
      clean.constraint = (error as { constraint?: unknown }).constraint;
      throw clean;
    }
    throw error;
  }
}

export function wrapPglite(pg: PGliteInterface, release: () => void = () => {}): Db {
  return {
    engine: 'pglite',
    ...queryable(pg),
    transaction: (fn) => pg.transaction((tx) => fn(queryable(tx))),
    async listen(channel, onMessage) {
      const unsubscribe = await pg.listen(channel, onMessage);
      return async () => unsubscribe();
    },
    async notify(channel, payload) {
      await pg.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async close() {
      try {
        if (!pg.closed) await pg.close();
      } finally {
        release();
      }
    },
  };
}

/**
 * Opens (creating if needed) the embedded database under dataDir, holding the directory's lock. A new one
 * starts as a copy of `initialDataDir` (a PGlite data directory, closed) when that holds a database: a copy of
 * files (copy_file_range on Linux) rather than initdb and whatever made the template.
 */
export async function openPglite(dataDir: string, options: { initialDataDir?: string } = {}): Promise<Db> {
  const release = acquireLock(dataDir);
  try {
    const pgdata = `${dataDir}/pgdata`;
    const template = options.initialDataDir;
    if (
      template !== undefined &&
      !existsSync(join(pgdata, 'PG_VERSION')) &&
      existsSync(join(template, 'PG_VERSION'))
    )
      cpSync(template, pgdata, { recursive: true });
    const pg = await PGlite.create(pgdata, pgliteOptions);
    return wrapPglite(pg, release);
  } catch (error) {
    release();
    throw error;
  }
}
