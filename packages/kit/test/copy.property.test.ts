import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyArrayField, copyField } from '../src/db/copy.ts';
import { createTestDb, testDatabaseUrl } from '../src/db/test-db.ts';
import type { Db } from '../src/db/types.ts';

const engine = testDatabaseUrl() ? 'postgres' : 'pglite';

/** Any text PostgreSQL can store: every code point but U+0000 (lone surrogates become U+FFFD on the way). */
const storable = fc.string({ unit: 'binary', maxLength: 40 }).map((s) => s.replace(/\u0000/g, ''));
/** What UTF-8 makes of a string: a lone surrogate becomes U+FFFD. */
const wellFormed = (s: string) => Buffer.from(s).toString();

describe(`COPY's text format on ${engine}`, () => {
  let db: Db;
  beforeAll(async () => {
    db = await createTestDb([
      {
        id: 'test/0001_copied.sql',
        sql: 'CREATE TABLE copied (id int PRIMARY KEY, t text, list text[], n float8, flag boolean);',
      },
    ]);
  }, 60_000);
  afterAll(() => db?.close());

  it('stores any text, list and number exactly as given', async () => {
    let id = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            t: fc.option(storable),
            list: fc.option(fc.array(storable, { maxLength: 4 })),
            n: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true })),
            flag: fc.option(fc.boolean()),
          }),
          { minLength: 1, maxLength: 20 },
        ),
        async (rows) => {
          const first = id;
          const text = rows
            .map((r) =>
              [
                copyField(id++),
                copyField(r.t),
                copyArrayField(r.list),
                copyField(r.n),
                copyField(r.flag),
              ].join('\t'),
            )
            .map((line) => `${line}\n`)
            .join('');
          await db.copyIn('copied', ['id', 't', 'list', 'n', 'flag'], id % 2 ? text : Buffer.from(text));
          const back = await db.query<{
            t: string | null;
            list: string[] | null;
            n: number | null;
            flag: boolean | null;
          }>('SELECT t, list, n, flag FROM copied WHERE id >= $1 ORDER BY id', [first]);
          expect(back.rows).toEqual(
            rows.map((r) => ({
              t: r.t === null ? null : wellFormed(r.t),
              list: r.list === null ? null : r.list.map(wellFormed),
              n: r.n === null ? null : Object.is(r.n, -0) ? 0 : r.n,
              flag: r.flag,
            })),
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses a duplicate key with the error code the bulk paths fall back on, and writes nothing of it', async () => {
    await db.copyIn('copied', ['id', 't'], '100000\ta\n');
    await expect(db.copyIn('copied', ['id', 't'], '100001\tb\n100000\tc\n')).rejects.toMatchObject({
      code: '23505',
    });
    const { rows } = await db.query('SELECT id, t FROM copied WHERE id >= 100000 ORDER BY id');
    expect(rows).toEqual([{ id: 100000, t: 'a' }]);
  });
});
