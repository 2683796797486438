import { afterEach, describe, expect, it } from 'vitest';
import { type Migration, migrate } from '../src/db/migrations.ts';
import { createTestDb, testDatabaseUrl } from '../src/db/test-db.ts';
import type { Db, QueryOptions } from '../src/db/types.ts';

const migrations: Migration[] = [
  { id: 'test/0001_things.sql', sql: 'CREATE TABLE things (id int PRIMARY KEY, name text NOT NULL);' },
  {
    id: 'test/0002_more.sql',
    sql: "ALTER TABLE things ADD COLUMN big bigint; INSERT INTO things VALUES (1, 'seed', 9007199254740991);",
  },
];

const engine = testDatabaseUrl() ? 'postgres' : 'pglite';

describe(`storage on ${engine}`, () => {
  let db: Db | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  it('starts from a migrated template; migrations apply once', async () => {
    db = await createTestDb(migrations);
    expect(db.engine).toBe(engine);
    const { rows } = await db.query<{ name: string; big: number }>('SELECT name, big FROM things');
    expect(rows).toEqual([{ name: 'seed', big: Number.MAX_SAFE_INTEGER }]);
    expect(await migrate(db, migrations)).toEqual([]);
    const applied = await db.query<{ id: string }>('SELECT id FROM cairn_migrations ORDER BY id');
    expect(applied.rows.map((r) => r.id)).toEqual(['test/0001_things.sql', 'test/0002_more.sql']);
  });

  it('plans a statement without bitmap scans when asked (PostgreSQL; PGlite ignores it)', async () => {
    db = await createTestDb(migrations);
    const setting = async (options?: QueryOptions) =>
      (await db!.query<{ enable_bitmapscan: string }>('SHOW enable_bitmapscan', [], options)).rows[0]!
        .enable_bitmapscan;
    expect(await setting({ bitmapScans: false })).toBe(engine === 'postgres' ? 'off' : 'on');
    expect(await setting({ bitmapScans: false, prepare: true })).toBe(engine === 'postgres' ? 'off' : 'on');
    // The other statements keep the server's setting, before and after.
    expect(await setting()).toBe('on');
    expect(await setting({ prepare: true })).toBe('on');
  });

  it('each test database is its own', async () => {
    db = await createTestDb(migrations);
    await db.query("INSERT INTO things (id, name) VALUES (2, 'mine')");
    const other = await createTestDb(migrations);
    try {
      expect((await other.query('SELECT * FROM things')).rows).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('rolls a failed transaction back whole', async () => {
    db = await createTestDb(migrations);
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO things (id, name) VALUES (3, 'half')");
        await tx.query("INSERT INTO things (id, name) VALUES (1, 'duplicate')");
      }),
    ).rejects.toThrow(/duplicate key/);
    expect((await db.query('SELECT * FROM things WHERE id = 3')).rows).toEqual([]);
  });

  it('refuses a statement sent after a transaction’s function has settled: nothing is written outside it', async () => {
    db = await createTestDb(migrations);
    let late: Promise<unknown> | undefined;
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO things (id, name) VALUES (4, 'inside')");
        // A write started and not awaited, whose second statement is sent after the function has thrown.
        late = (async () => {
          await tx.query('SELECT 1');
          await tx.query("INSERT INTO things (id, name) VALUES (5, 'late')");
        })();
        late.catch(() => undefined);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await expect(late).rejects.toThrow(/transaction (has ended|is closed)/i);
    expect((await db.query('SELECT id FROM things WHERE id IN (4, 5)')).rows).toEqual([]);
  });

  it('a failed migration changes nothing and names itself', async () => {
    db = await createTestDb(migrations);
    const broken = [
      ...migrations,
      { id: 'test/0003_broken.sql', sql: 'CREATE TABLE t3 (x int); SELECT nope;' },
    ];
    await expect(migrate(db, broken)).rejects.toThrow(/migration test\/0003_broken.sql failed/);
    expect((await db.query("SELECT to_regclass('t3') AS t")).rows).toEqual([{ t: null }]);
  });

  it('delivers NOTIFY to listeners', async () => {
    db = await createTestDb(migrations);
    const got: string[] = [];
    const stop = await db.listen('cairn_test', (payload) => got.push(payload));
    await db.notify('cairn_test', 'hello');
    for (let i = 0; i < 50 && got.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(got).toEqual(['hello']);
    await stop();
  });
});
