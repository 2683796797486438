import { setImmediate } from 'node:timers/promises';
import type { Db, Queryable } from '@cairn/kit';
import type { PlaceRecord } from '../data/place-record.ts';
import { buildChains } from '../reference/chains.ts';
import { type City, gazetteer } from '../reference/cities.ts';
import { ensureReferenceData } from '../reference/reference.ts';
import { buildTaxonomy } from '../reference/taxonomy.ts';
import {
  copyPlaces,
  type PlaceNames,
  PlacesCopyBuilder,
  takeBulkLoadTurn,
  vacuumAfterBulkLoad,
  writePlaces,
} from '../store/places-write.ts';
import { type CityPlan, generateInSpaceOrder, generatePlan } from './generator.ts';

export interface GenerateOptions {
  count: number;
  seed: string;
  batchSize?: number;
  /** Generate around these cities only (tests, benchmarks); default: every city of 15,000 people or more. */
  cities?: readonly City[];
  /** How many places around which cities, instead of `count` places around cities drawn by population. */
  plan?: readonly CityPlan[];
  /**
   * Load by COPY in one transaction per writer (see WRITERS) rather than batch by batch; by default from
   * 50,000 places.
   */
  bulk?: boolean;
  /** Called after each batch with the number of places written so far. */
  onProgress?: (done: number, total: number) => void;
}

export const MAX_GENERATE = 50_000_000;

/** From this many places a run is one transaction of COPYs. */
const BULK_LOAD = 50_000;

/** Places made at a time between turns of the event loop (~10 ms of work). */
const CHUNK = 250;

/**
 * Connections a bulk load writes on at once, batches taking turns, on PostgreSQL (PGlite has one). The server's
 * work for a place (~100 µs, three quarters of it the GiST and GIN indexes kept row by row) is about twice this
 * process's (~40 µs), so one connection leaves a core half idle: two took 1M places from 103–111 s to 76–77 s
 * on two cores (bench/places-generate.ts). More would only queue on the same cores.
 */
const WRITERS = 2;

/**
 * Generates `count` places into the store. The same seed and count give the same places (same ids), so running
 * it again rewrites them rather than adding copies.
 */
export async function generatePlaces(
  db: Db,
  options: GenerateOptions,
): Promise<{ written: number; ms: number }> {
  const started = performance.now();
  await ensureReferenceData(db);
  const taxonomy = buildTaxonomy();
  const chains = buildChains(taxonomy);
  const chainNames = new Map(chains.map((c) => [c.id, c.name]));
  const input = { seed: options.seed, taxonomy, chains, cities: options.cities ?? gazetteer().cities };
  const batchSize = options.batchSize ?? 5000;
  const total = options.plan ? options.plan.reduce((sum, p) => sum + p.count, 0) : options.count;
  // Places are made in small chunks with a turn of the event loop after each, so the database connection's
  // socket is written to while the next places are made (one synchronous batch would starve the server).
  const chunks = () =>
    options.plan
      ? generatePlan(input, options.plan, CHUNK)
      : generateInSpaceOrder(input, options.count, CHUNK);
  const categoryPaths = new Map(taxonomy.map((c) => [c.id, c.path.map((step) => step.id)]));
  const names: PlaceNames = {
    chainName: (id) => chainNames.get(id),
    categoryPath: (id) => categoryPaths.get(id),
  };
  /**
   * Writes the places in batches of `batchSize`, collected by `batches` and written by `write` on the targets
   * (each target's batches one after the other).
   */
  const load = async <T>(
    targets: readonly Queryable[],
    batches: { readonly size: number; add(record: PlaceRecord): void; take(): T },
    write: (target: Queryable, batch: T) => Promise<void>,
  ) => {
    let written = 0;
    // Each target is handed at most two batches at a time (one being written, the next waiting), so the database
    // has the next batch as soon as it finishes one, the one after made meanwhile; a batch goes to the target
    // with the fewest, so a slow batch (a checkpoint, a wait for WAL) holds up only its own connection.
    const handed = targets.map(() => 0);
    const tails = targets.map((): Promise<void> => Promise.resolve());
    let roomMade: (() => void) | undefined;
    // The first failure (a write, the generator, onProgress): batches not yet started are not written, and the
    // run waits for the ones being written, so that no write reaches a connection after its transaction has
    // been rolled back and returned.
    let failure: { error: unknown } | undefined;
    const flush = async () => {
      while (!failure && Math.min(...handed) >= 2) await new Promise<void>((made) => (roomMade = made));
      if (failure) throw failure.error;
      const which = handed.indexOf(Math.min(...handed));
      const target = targets[which]!;
      const rows = batches.size;
      const batch = batches.take();
      handed[which]! += 1;
      tails[which] = tails[which]!.then(async () => {
        try {
          if (failure) return;
          await write(target, batch);
          written += rows;
          options.onProgress?.(written, total);
        } catch (error) {
          failure ??= { error };
        } finally {
          handed[which]! -= 1;
          roomMade?.();
        }
      });
    };
    try {
      for (const chunk of chunks()) {
        for (const record of chunk) batches.add(record);
        if (batches.size >= batchSize) await flush();
        await setImmediate();
      }
      if (batches.size > 0) await flush();
    } catch (error) {
      failure ??= { error };
    }
    await Promise.all(tails); // they never reject: a failure is kept in `failure`
    if (failure) throw failure.error;
    return written;
  };
  // Large runs load by COPY in one transaction per writer, committed together once every batch is written (a
  // failure rolls all of them back; only a failure between their commits would keep a part, which the same
  // seed completes). Small runs write batch by batch (a run cut short keeps whole batches; likewise). Inside a
  // caller's transaction (fixtures) there is one connection, and the caller commits.
  const bulk = options.bulk ?? total >= BULK_LOAD;
  const writers = db.engine === 'postgres' && !db.insideTransaction ? WRITERS : 1;
  const written = bulk
    ? await inTransactions(db, writers, async (txs) => {
        await takeBulkLoadTurn(txs[0]!, db.engine);
        return load(txs, new PlacesCopyBuilder(names), copyPlaces);
      })
    : await load([db], new RecordBatches(), (target, records) => writePlaces(target, records, names));
  if (bulk) await vacuumAfterBulkLoad(db);
  return { written, ms: performance.now() - started };
}

/**
 * Runs fn with `count` transactions open on as many connections: committed one after the other when fn
 * resolves, all rolled back when it throws.
 */
function inTransactions<T>(db: Db, count: number, fn: (txs: Queryable[]) => Promise<T>): Promise<T> {
  const open = (txs: Queryable[]): Promise<T> =>
    txs.length === count ? fn(txs) : db.transaction((tx) => open([...txs, tx]));
  return open([]);
}

/** Records collected into batches as they are, for writePlaces. */
class RecordBatches {
  private records: PlaceRecord[] = [];

  get size(): number {
    return this.records.length;
  }

  add(record: PlaceRecord): void {
    this.records.push(record);
  }

  take(): PlaceRecord[] {
    const taken = this.records;
    this.records = [];
    return taken;
  }
}
