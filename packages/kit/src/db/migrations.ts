import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './types.ts';

/**
 * SQL migrations, the same files on both engines. Ids are "<service>/<file>" and are applied in the order
 * given (services in dependency order, files by name), exactly once, all of a run in one transaction.
 */
export interface Migration {
  id: string;
  sql: string;
}

/** Reads `NNNN_name.sql` files of a folder, sorted by name. */
export function migrationsFromDir(service: string, dir: string): Migration[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((name) => ({ id: `${service}/${name}`, sql: readFileSync(join(dir, name), 'utf8') }));
}

export function migrationsDigest(migrations: readonly Migration[]): string {
  const hash = createHash('sha256');
  for (const m of migrations) hash.update(m.id).update('\0').update(m.sql).update('\0');
  return hash.digest('hex').slice(0, 16);
}

// Any constant works; it only has to be the same in every Cairn process.
const MIGRATION_LOCK = 4_242_001;

export async function migrate(db: Db, migrations: readonly Migration[]): Promise<string[]> {
  const seen = new Set<string>();
  for (const m of migrations) {
    if (seen.has(m.id)) throw new Error(`migration ${m.id} is listed twice`);
    seen.add(m.id);
  }
  return db.transaction(async (tx) => {
    // Several processes may start at once against one PostgreSQL server: one migrates, the others wait.
    if (db.engine === 'postgres') await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec(
      'CREATE TABLE IF NOT EXISTS cairn_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const { rows } = await tx.query<{ id: string }>('SELECT id FROM cairn_migrations');
    const applied = new Set(rows.map((r) => r.id));
    const ran: string[] = [];
    for (const m of migrations) {
      if (applied.has(m.id)) continue;
      try {
        await tx.exec(m.sql);
      } catch (error) {
        throw new Error(`migration ${m.id} failed: ${(error as Error).message}`, { cause: error });
      }
      await tx.query('INSERT INTO cairn_migrations (id) VALUES ($1)', [m.id]);
      ran.push(m.id);
    }
    return ran;
  });
}
