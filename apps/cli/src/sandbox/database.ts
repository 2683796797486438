import type { Queryable } from '@cairn/kit';

/** The sandbox's own tables: never copied into a snapshot, never truncated by a restore. */
export const SANDBOX_TABLE_PREFIX = 'cairn_sandbox';
const MARKER = 'cairn_sandbox';
const SNAPSHOTS = 'cairn_sandbox_snapshots';

/** Sandbox mode was asked for on a database that was not created in sandbox mode. */
export class SandboxRefusedError extends Error {
  override name = 'SandboxRefusedError';
}

/** CAIRN_SANDBOX: "1" turns sandbox mode on; unset, "" or "0" leave it off; anything else is a mistake. */
export function sandboxMode(env: NodeJS.ProcessEnv = process.env): boolean {
  const raw = env.CAIRN_SANDBOX;
  if (raw === undefined || raw === '' || raw === '0') return false;
  if (raw === '1') return true;
  throw new SandboxRefusedError(`CAIRN_SANDBOX: expected 1 (sandbox mode) or 0, got "${raw.slice(0, 40)}"`);
}

async function exists(db: Queryable, table: string): Promise<boolean> {
  const { rows } = await db.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [table]);
  return rows[0]?.t != null;
}

/**
 * Run before the migrations when sandbox mode starts: a database that already holds Cairn's tables but no
 * sandbox mark was created outside sandbox mode and may hold production data, which snapshots, resets and a
 * moved clock would rewrite: it is refused. A new database is marked as a sandbox one.
 */
export async function prepareSandboxDatabase(db: Queryable): Promise<void> {
  if ((await exists(db, 'cairn_migrations')) && !(await exists(db, MARKER))) {
    throw new SandboxRefusedError(
      'sandbox mode (CAIRN_SANDBOX=1) refuses this database: it was not created in sandbox mode, so it may hold production data that snapshots and resets would overwrite. Point CAIRN_DATA_DIR at a new directory (or DATABASE_URL at an empty database) to create a sandbox, or start without CAIRN_SANDBOX',
    );
  }
  await markSandboxDatabase(db);
}

/** Marks the database as created in sandbox mode (idempotent) and creates the snapshot catalogue. */
export async function markSandboxDatabase(db: Queryable): Promise<void> {
  await db.exec(`
    CREATE TABLE IF NOT EXISTS ${MARKER} (id boolean PRIMARY KEY DEFAULT true CHECK (id), created_at timestamptz NOT NULL DEFAULT now());
    INSERT INTO ${MARKER} (id) VALUES (true) ON CONFLICT DO NOTHING;
    -- The snapshot the database matched when the note of written tables was last cleared (snapshots.ts).
    ALTER TABLE ${MARKER} ADD COLUMN IF NOT EXISTS base text;
    CREATE TABLE IF NOT EXISTS ${SNAPSHOTS} (
      name text PRIMARY KEY,
      schema_name text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL,
      tables integer NOT NULL,
      rows bigint NOT NULL
    );`);
}

export { MARKER as MARKER_TABLE, SNAPSHOTS as SNAPSHOTS_TABLE };
