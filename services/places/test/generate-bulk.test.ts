import { testDatabaseUrl, transactionAsDb } from '@cairn/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gazetteer, generatePlaces } from '../src/index.ts';
import { callPlaces, type PlacesFixture, startPlaces } from './helpers.ts';

/**
 * Large generations and imports are written by COPY in one transaction per writer; small ones by the upsert.
 * Both must store the same rows: the same seed written each way gives identical places, every derived column
 * included (search text, opening hours as ranges and index slots, the point).
 */
describe('generation by COPY', () => {
  let f: PlacesFixture;
  const cities = ['Paris, FR', 'Tokyo, JP', 'São Paulo, BR'].map((name) => gazetteer().resolve(name)!);
  const rowsOf = async (seedPrefix: string) => {
    const { rows } = await f.deps.db.query<{ id: string; row: Record<string, unknown> }>(
      `SELECT fsq_place_id AS id, to_jsonb(p) - 'fsq_place_id' AS row
         FROM places p WHERE fsq_place_id = ANY($1::text[]) ORDER BY fsq_place_id`,
      [seedPrefix.split(',')],
    );
    return rows;
  };
  /** Rows of a table, as committed (read on a connection of the pool). */
  const rowCount = async (table: 'places' | 'places_open_kinds') =>
    (await f.deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;

  beforeAll(async () => {
    f = await startPlaces();
  }, 120_000);
  afterAll(() => f?.close());

  it('writes the same rows as the upsert, and a second run of the seed replaces them', async () => {
    const progress: number[] = [];
    const bulk = await generatePlaces(f.deps.db, {
      count: 900,
      seed: 'bulk',
      cities,
      bulk: true,
      batchSize: 200,
      onProgress: (done) => progress.push(done),
    });
    expect(bulk.written).toBe(900);
    expect(progress.at(-1)).toBe(900);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const ids = (
      await f.deps.db.query<{ id: string }>(`SELECT fsq_place_id AS id FROM places ORDER BY fsq_place_id`)
    ).rows.map((r) => r.id);
    expect(ids).toHaveLength(900);
    const copied = await rowsOf(ids.join(','));
    // vacuumed and analyzed once loaded (the visibility map set then; the planner's statistics taken)
    const { rows: upkeep } = await f.deps.db.query<{ relname: string; vacuumed: boolean; analyzed: boolean }>(
      `SELECT relname, last_vacuum IS NOT NULL AS vacuumed, last_analyze IS NOT NULL AS analyzed
         FROM pg_stat_user_tables WHERE relname IN ('places', 'places_open_kinds') ORDER BY relname`,
    );
    expect(upkeep).toEqual([
      { relname: 'places', vacuumed: true, analyzed: true },
      { relname: 'places_open_kinds', vacuumed: true, analyzed: true },
    ]);

    // The same seed again by COPY: every batch meets its places and is written by the upsert instead.
    await generatePlaces(f.deps.db, { count: 900, seed: 'bulk', cities, bulk: true, batchSize: 200 });
    expect(await rowsOf(ids.join(','))).toEqual(copied);

    // And by the upsert into an empty table: the same rows.
    await f.deps.db.exec('DELETE FROM places');
    await generatePlaces(f.deps.db, { count: 900, seed: 'bulk', cities, bulk: false, batchSize: 200 });
    const upserted = await rowsOf(ids.join(','));
    expect(upserted).toEqual(copied);
    expect(upserted[0]!.row).toMatchObject({ search_text: expect.any(String), pt: expect.any(String) });

    const paris = await callPlaces(f, '/places/search?near=Paris,%20FR&limit=5');
    expect(paris.status).toBe(200);
    expect(paris.body.results).toHaveLength(5);
  });

  it('keeps nothing of a load that fails after its batches went to every writer, and takes statistics', async () => {
    await f.deps.db.exec('DELETE FROM places');
    // Batches of 100 take turns on the writers (two on PostgreSQL): by the fifth, each has written some.
    const failing = generatePlaces(f.deps.db, {
      count: 900,
      seed: 'cut',
      cities,
      bulk: true,
      batchSize: 100,
      onProgress: (done) => {
        if (done >= 500) throw new Error('cut short');
      },
    });
    await expect(failing).rejects.toThrow('cut short');
    expect(await rowCount('places')).toBe(0);
    expect(await rowCount('places_open_kinds')).toBe(0);

    await generatePlaces(f.deps.db, { count: 900, seed: 'cut', cities, bulk: true, batchSize: 100 });
    expect(await rowCount('places')).toBe(900);
    // analyzed once committed: the planner knows the rows of both writers
    const { rows } = await f.deps.db.query<{ reltuples: number }>(
      `SELECT reltuples::int AS reltuples FROM pg_class WHERE relname = 'places'`,
    );
    expect(rows[0]!.reltuples).toBe(900);
  });

  it('loads inside a transaction lent as a Db (fixtures), on its one connection, committed or rolled back by it', async () => {
    await f.deps.db.exec('DELETE FROM places');
    const options = { count: 900, seed: 'lent', cities, bulk: true, batchSize: 100 };
    const rolledBack = f.deps.db.transaction(async (tx) => {
      await generatePlaces(transactionAsDb(tx, f.deps.db.engine), options);
      throw new Error('the caller fails after');
    });
    await expect(rolledBack).rejects.toThrow('the caller fails after');
    expect(await rowCount('places')).toBe(0);
    const written = await f.deps.db.transaction(
      async (tx) => (await generatePlaces(transactionAsDb(tx, f.deps.db.engine), options)).written,
    );
    expect(written).toBe(900);
    expect(await rowCount('places')).toBe(900);
  });

  // PostgreSQL only: PGlite has one connection, one transaction at a time.
  it.skipIf(!testDatabaseUrl())(
    'runs bulk loads one at a time: a second writes only once the first has committed',
    async () => {
      // Two loads on two connections each could otherwise wait for each other's rows (the same places) without
      // PostgreSQL seeing the deadlock: one waits for its other connection in this process.
      await f.deps.db.exec('DELETE FROM places');
      const options = { count: 900, cities, bulk: true, batchSize: 100 };
      let second: Promise<unknown> | undefined;
      let seenBySecond: Promise<number> | undefined;
      // The first is long enough (60 batches) for the second to be ready to write before it ends.
      await generatePlaces(f.deps.db, {
        ...options,
        count: 6000,
        seed: 'first',
        onProgress: () => {
          second ??= generatePlaces(f.deps.db, {
            ...options,
            seed: 'second',
            onProgress: () => {
              seenBySecond ??= rowCount('places');
            },
          });
        },
      });
      await second;
      expect(await seenBySecond).toBe(6000);
      expect(await rowCount('places')).toBe(6900);
    },
  );
});
