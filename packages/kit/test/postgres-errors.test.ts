import { Writable } from 'node:stream';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb, testDatabaseUrl } from '../src/db/test-db.ts';
import { createLogger } from '../src/log.ts';

/** A logger whose lines the test reads, and waits for. */
function capturingLog() {
  const lines: { level: number; msg: string; server?: string; channels?: string[] }[] = [];
  const waiters: { match: RegExp; resolve: () => void }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const line = JSON.parse(chunk.toString('utf8'));
      lines.push(line);
      for (const w of waiters) if (w.match.test(line.msg)) w.resolve();
      done();
    },
  });
  return {
    log: createLogger('info', sink),
    lines,
    /** Resolves when a line whose message matches has been logged (or already was). */
    logged(match: RegExp) {
      if (lines.some((l) => match.test(l.msg))) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push({ match, resolve }));
    },
  };
}

/** Ends, from outside, the server connections of the test database whose last query matches. */
async function terminate(db: TestDb, queryLike: string): Promise<number> {
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  try {
    const { rows } = await admin.query(
      `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE $1`,
      [queryLike],
    );
    return rows.length;
  } finally {
    await admin.end();
  }
}

describe.skipIf(!testDatabaseUrl())(
  'PostgreSQL connection failures are logged and recovered from (PostgreSQL only: PGlite has no connections to lose — set DATABASE_URL)',
  () => {
    let db: TestDb | undefined;
    afterEach(async () => {
      await db?.close();
      db = undefined;
    });

    it('a LISTEN connection ended by the server: a warning naming the channels, then a reconnect that says so', async () => {
      const capture = capturingLog();
      db = await createTestDb([], capture.log);
      const received: string[] = [];
      await db.listen('cairn_test_channel', (payload) => received.push(payload));
      expect(await terminate(db, 'LISTEN%')).toBe(1);
      await capture.logged(/LISTEN connection lost/);
      await capture.logged(/LISTEN connection re-established/);
      const lost = capture.lines.find((l) => /LISTEN connection lost/.test(l.msg));
      expect(lost).toMatchObject({ level: 40, channels: ['cairn_test_channel'] });
      expect(lost?.server).toMatch(/^[^@]+:\d+\/cairn_t_/);
      // Listening again: a notification reaches the handler.
      const arrived = new Promise<void>((resolve) => {
        void db?.listen('cairn_test_channel', () => resolve());
      });
      await db.notify('cairn_test_channel', 'after');
      await arrived;
      expect(received).toContain('after');
    });

    it('an idle pooled connection ended by the server: a warning, and the next query works', async () => {
      const capture = capturingLog();
      db = await createTestDb([], capture.log);
      await db.query('SELECT 1 AS idle_probe');
      expect(await terminate(db, '%idle_probe%')).toBe(1);
      await capture.logged(/idle pooled connection failed/);
      expect((await db.query<{ n: number }>('SELECT 2 AS n')).rows).toEqual([{ n: 2 }]);
    });

    it('a transaction whose connection dies: the ROLLBACK failure is logged, the connection discarded, the error the caller sees is the first', async () => {
      const capture = capturingLog();
      db = await createTestDb([], capture.log);
      const testDb = db;
      const failure = testDb.transaction(async (tx) => {
        await tx.query('SELECT 1 AS doomed_transaction');
        await terminate(testDb, '%doomed_transaction%');
        throw new Error('the work failed');
      });
      await expect(failure).rejects.toThrow('the work failed');
      await capture.logged(/ROLLBACK failed; the connection is discarded/);
      // The pool hands out a working connection afterwards, also for transactions.
      const n = await testDb.transaction(
        async (tx) => (await tx.query<{ n: number }>('SELECT 3 AS n')).rows[0]?.n,
      );
      expect(n).toBe(3);
    });
  },
);
