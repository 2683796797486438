import { randomBytes } from 'node:crypto';
import { badRequest, type CairnError, type Db, notFound, type Queryable } from '@cairn/kit';
import { MARKER_TABLE, SANDBOX_TABLE_PREFIX, SNAPSHOTS_TABLE } from './database.ts';

/** A snapshot as listed. */
export interface SnapshotInfo {
  name: string;
  createdAt: string;
  tables: number;
  rows: number;
}

interface Table {
  name: string;
  columns: string[];
  /** Has a GENERATED ALWAYS identity column: inserts need OVERRIDING SYSTEM VALUE. */
  identityAlways: boolean;
  /** Tables with a foreign key to this one. */
  children: string[];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
const SEQUENCES = 'cairn_snapshot_sequences';
const DIRTY = `${SANDBOX_TABLE_PREFIX}_dirty`;

/**
 * Which tables were written since the database last matched a snapshot: a statement trigger on every Cairn
 * table notes its name (once: a table already noted costs one index lookup per statement, and concurrent
 * writers don't queue on the note). A restore of that same snapshot then copies back only those tables
 * (and the tables referencing them, which TRUNCATE needs): a reset after a test that added a user rewrites
 * the users tables, not the 20,000 demo places.
 */
async function installTracking(tx: Queryable, tables: readonly Table[]): Promise<Set<string>> {
  // A database cloned from a template (startCairn) has them already: a start adds only what is missing.
  const { rows } = await tx.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE t.tgname = $1`,
    [`${DIRTY}_note`],
  );
  const have = new Set(rows.map((r) => r.name));
  const missing = tables.filter((t) => !have.has(t.name));
  if (missing.length === 0) return new Set();
  await tx.exec(`
    CREATE TABLE IF NOT EXISTS ${DIRTY} (name text PRIMARY KEY);
    CREATE OR REPLACE FUNCTION ${DIRTY}_note() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM ${DIRTY} WHERE name = TG_TABLE_NAME) THEN
        INSERT INTO ${DIRTY} (name) VALUES (TG_TABLE_NAME) ON CONFLICT DO NOTHING;
      END IF;
      RETURN NULL;
    END $$;`);
  for (const t of missing) {
    await tx.exec(
      `CREATE OR REPLACE TRIGGER ${DIRTY}_note AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${quote(t.name)}
         FOR EACH STATEMENT EXECUTE FUNCTION ${DIRTY}_note()`,
    );
  }
  return new Set(missing.map((t) => t.name));
}

/** The written tables and every table referencing one of them (transitively). */
async function dirtyClosure(
  tx: Queryable,
  tables: readonly Table[],
  alsoWritten: ReadonlySet<string> = new Set(),
): Promise<Set<string>> {
  const { rows } = await tx.query<{ name: string }>(`SELECT name FROM ${DIRTY}`);
  const byName = new Map(tables.map((t) => [t.name, t]));
  const out = new Set<string>();
  const add = (name: string) => {
    if (out.has(name) || !byName.has(name)) return;
    out.add(name);
    for (const child of byName.get(name)!.children) add(child);
  };
  for (const r of rows) add(r.name);
  for (const name of alsoWritten) add(name);
  return out;
}

export const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

export function checkSnapshotName(name: unknown): string {
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw badRequest(
      `a snapshot name is 1 to 63 letters, digits, ".", "_" or "-", starting with a letter or digit; got ${JSON.stringify(name)?.slice(0, 80) ?? 'nothing'}`,
      { parameter: 'name' },
    );
  }
  return name;
}

/**
 * Cairn's tables in the current schema, in an order where every table comes after those it references. Tables
 * whose comment says they are derived (kept from another table by its triggers, e.g. places_open_kinds) are left
 * out: restoring their source rebuilds them, and copying them as well would write their rows twice.
 */
async function cairnTables(db: Queryable): Promise<Table[]> {
  const { rows } = await db.query<{ name: string; columns: string[]; identity_always: boolean }>(
    `SELECT c.relname AS name,
            array_agg(a.attname::text ORDER BY a.attnum) AS columns,
            bool_or(a.attidentity = 'a') AS identity_always
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND c.relname <> 'cairn_migrations' AND left(c.relname, ${SANDBOX_TABLE_PREFIX.length}) <> $1
        AND coalesce(obj_description(c.oid, 'pg_class'), '') NOT LIKE 'derived from %'
      GROUP BY c.relname
      ORDER BY c.relname`,
    [SANDBOX_TABLE_PREFIX],
  );
  const edges = await db.query<{ child: string; parent: string }>(
    `SELECT ch.relname AS child, pa.relname AS parent
       FROM pg_constraint k
       JOIN pg_class ch ON ch.oid = k.conrelid
       JOIN pg_class pa ON pa.oid = k.confrelid
       JOIN pg_namespace n ON n.oid = ch.relnamespace
      WHERE k.contype = 'f' AND n.nspname = current_schema() AND ch.oid <> pa.oid`,
  );
  const parents = new Map<string, Set<string>>();
  const children = new Map<string, string[]>();
  for (const e of edges.rows) {
    if (!parents.has(e.child)) parents.set(e.child, new Set());
    parents.get(e.child)!.add(e.parent);
    children.set(e.parent, [...(children.get(e.parent) ?? []), e.child]);
  }
  const byName = new Map(rows.map((r) => [r.name, r]));
  const ordered: Table[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string) => {
    const seen = state.get(name);
    if (seen === 'done') return;
    // A cycle of foreign keys: the insert order can't satisfy it (none exists among Cairn's tables).
    if (seen === 'visiting') throw new Error(`sandbox snapshots: a foreign-key cycle through table ${name}`);
    state.set(name, 'visiting');
    for (const parent of parents.get(name) ?? []) if (byName.has(parent)) visit(parent);
    state.set(name, 'done');
    const row = byName.get(name)!;
    ordered.push({
      name,
      columns: row.columns,
      identityAlways: row.identity_always,
      children: children.get(name) ?? [],
    });
  };
  for (const r of rows) visit(r.name);
  return ordered;
}

async function sequences(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'S' ORDER BY 1`,
  );
  return rows.map((r) => r.name);
}

/** Names of the tables saved in a snapshot's schema. */
async function savedTables(tx: Queryable, schema: string): Promise<Map<string, Set<string>>> {
  const { rows } = await tx.query<{ table: string; column: string }>(
    `SELECT c.relname AS "table", a.attname AS "column"
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE n.nspname = $1 AND c.relkind = 'r' AND c.relname <> $2`,
    [schema, SEQUENCES],
  );
  const saved = new Map<string, Set<string>>();
  for (const r of rows) {
    if (!saved.has(r.table)) saved.set(r.table, new Set());
    saved.get(r.table)!.add(r.column);
  }
  return saved;
}

/** The snapshot the database matched when the written-tables note was last cleared (kept in the database). */
async function baseOf(tx: Queryable): Promise<string | null> {
  const { rows } = await tx.query<{ base: string | null }>(`SELECT base FROM ${MARKER_TABLE}`);
  return rows[0]?.base ?? null;
}

async function matched(tx: Queryable, name: string | null): Promise<void> {
  await tx.exec(`DELETE FROM ${DIRTY}`);
  await tx.query(`UPDATE ${MARKER_TABLE} SET base = $1`, [name]);
}

/**
 * Snapshots of every Cairn table, kept in the database itself (one schema per snapshot), so they work alike
 * on the embedded database and on PostgreSQL and survive a restart (or a template's dump). Taking one copies
 * each table (CREATE TABLE … AS SELECT) and each sequence's position; restoring empties the tables and copies
 * the rows back in one transaction, parents before children, sequences included: other connections see the
 * old state or the new one, never a mix. Against the snapshot the database last matched, both copy only the
 * tables written since (see installTracking).
 */
export class SnapshotStore {
  constructor(private readonly db: Db) {}

  async list(): Promise<SnapshotInfo[]> {
    const { rows } = await this.db.query<{ name: string; created_at: Date; tables: number; rows: number }>(
      `SELECT name, created_at, tables, rows FROM ${SNAPSHOTS_TABLE} ORDER BY created_at, name`,
    );
    return rows.map((r) => ({
      name: r.name,
      createdAt: new Date(r.created_at).toISOString(),
      tables: r.tables,
      rows: Number(r.rows),
    }));
  }

  /** Takes a snapshot; one of the same name is replaced. `at` is the sandbox clock's time. */
  async take(name: string, at: Date): Promise<SnapshotInfo & { replaced: boolean }> {
    return this.db.transaction(async (tx) => {
      const tables = await cairnTables(tx);
      const untracked = await installTracking(tx, tables);
      const { rows: found } = await tx.query<{ schema_name: string }>(
        `SELECT schema_name FROM ${SNAPSHOTS_TABLE} WHERE name = $1`,
        [name],
      );
      let schema = found[0]?.schema_name;
      let copy: readonly Table[] = tables;
      if (schema && (await baseOf(tx)) === name) {
        // The database matched this snapshot, then some tables were written: refresh only those (and any
        // table the snapshot lacks or whose writes were not noted).
        const saved = await savedTables(tx, schema);
        const written = await dirtyClosure(tx, tables);
        copy = tables.filter((t) => written.has(t.name) || untracked.has(t.name) || !saved.has(t.name));
        for (const t of copy) await tx.exec(`DROP TABLE IF EXISTS ${quote(schema)}.${quote(t.name)}`);
        await tx.exec(`DROP TABLE ${quote(schema)}.${SEQUENCES}`);
      } else {
        if (schema) await this.drop(tx, name);
        schema = `cairn_snap_${randomBytes(6).toString('hex')}`;
        await tx.exec(`CREATE SCHEMA ${quote(schema)}`);
      }
      const target = quote(schema);
      for (const t of copy) {
        const cols = t.columns.map(quote).join(', ');
        await tx.exec(`CREATE TABLE ${target}.${quote(t.name)} AS SELECT ${cols} FROM ${quote(t.name)}`);
      }
      await tx.exec(
        `CREATE TABLE ${target}.${SEQUENCES} (name text PRIMARY KEY, last_value bigint NOT NULL, is_called boolean NOT NULL)`,
      );
      for (const seq of await sequences(tx)) {
        await tx.query(
          `INSERT INTO ${target}.${SEQUENCES} (name, last_value, is_called) SELECT $1, last_value, is_called FROM ${quote(seq)}`,
          [seq],
        );
      }
      let total = 0;
      for (const t of tables) {
        const { rows } = await tx.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${target}.${quote(t.name)}`,
        );
        total += rows[0]?.n ?? 0;
      }
      await tx.query(
        `INSERT INTO ${SNAPSHOTS_TABLE} (name, schema_name, created_at, tables, rows) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (name) DO UPDATE SET created_at = $3, tables = $4, rows = $5`,
        [name, schema, at, tables.length, total],
      );
      await matched(tx, name);
      const replaced = found.length > 0;
      return { name, createdAt: at.toISOString(), tables: tables.length, rows: total, replaced };
    });
  }

  /** Puts every table back as it was when the snapshot was taken. */
  async restore(name: string, inTransaction?: (tx: Queryable) => Promise<void>): Promise<SnapshotInfo> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{
        schema_name: string;
        created_at: Date;
        tables: number;
        rows: number;
      }>(`SELECT schema_name, created_at, tables, rows FROM ${SNAPSHOTS_TABLE} WHERE name = $1 FOR UPDATE`, [
        name,
      ]);
      const found = rows[0];
      if (!found) throw await this.unknown(tx, name);
      const schema = quote(found.schema_name);
      const tables = await cairnTables(tx);
      const untracked = await installTracking(tx, tables);
      const saved = await savedTables(tx, found.schema_name);
      // Back to the snapshot the database last matched: only what was written since. Otherwise all.
      let chosen: readonly Table[] = tables;
      if ((await baseOf(tx)) === name) {
        const written = await dirtyClosure(tx, tables, untracked);
        chosen = tables.filter((t) => written.has(t.name));
      }
      if (chosen.length > 0) await tx.exec(`TRUNCATE ${chosen.map((t) => quote(t.name)).join(', ')}`);
      for (const t of chosen) {
        const have = saved.get(t.name);
        if (!have) continue; // a table made after the snapshot: left empty
        const cols = t.columns
          .filter((c) => have.has(c))
          .map(quote)
          .join(', ');
        const overriding = t.identityAlways ? ' OVERRIDING SYSTEM VALUE' : '';
        await tx.exec(
          `INSERT INTO ${quote(t.name)} (${cols})${overriding} SELECT ${cols} FROM ${schema}.${quote(t.name)}`,
        );
      }
      const current = new Set(await sequences(tx));
      const positions = await tx.query<{ name: string; last_value: number; is_called: boolean }>(
        `SELECT name, last_value, is_called FROM ${schema}.${SEQUENCES}`,
      );
      for (const seq of positions.rows) {
        if (current.has(seq.name)) {
          await tx.query('SELECT setval($1::regclass, $2, $3)', [
            quote(seq.name),
            seq.last_value,
            seq.is_called,
          ]);
        }
      }
      await inTransaction?.(tx);
      await matched(tx, name);
      return {
        name,
        createdAt: new Date(found.created_at).toISOString(),
        tables: found.tables,
        rows: Number(found.rows),
      };
    });
  }

  async remove(name: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await this.drop(tx, name))) throw await this.unknown(tx, name);
      if ((await baseOf(tx)) === name) await tx.query(`UPDATE ${MARKER_TABLE} SET base = NULL`);
    });
  }

  private async drop(tx: Queryable, name: string): Promise<boolean> {
    const { rows } = await tx.query<{ schema_name: string }>(
      `DELETE FROM ${SNAPSHOTS_TABLE} WHERE name = $1 RETURNING schema_name`,
      [name],
    );
    const schema = rows[0]?.schema_name;
    if (schema) await tx.exec(`DROP SCHEMA IF EXISTS ${quote(schema)} CASCADE`);
    return schema !== undefined;
  }

  private async unknown(tx: Queryable, name: string): Promise<CairnError> {
    const { rows } = await tx.query<{ name: string }>(
      `SELECT name FROM ${SNAPSHOTS_TABLE} WHERE left(name, 1) <> '@' ORDER BY name`,
    );
    const known = rows.map((r) => JSON.stringify(r.name));
    return notFound(
      `No snapshot named ${JSON.stringify(name.slice(0, 100))}; ${known.length > 0 ? `there are: ${known.join(', ')}` : 'there are none (create one with POST /_cairn/snapshots)'}`,
    );
  }
}
