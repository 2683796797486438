import type { Db, Queryable } from '@cairn/kit';
import { buildChains } from '../reference/chains.ts';
import { type City, gazetteer } from '../reference/cities.ts';
import { ensureReferenceData } from '../reference/reference.ts';
import { buildTaxonomy } from '../reference/taxonomy.ts';
import { estimatedPlaces, withIndexesRebuilt, worthRebuilding } from '../store/bulk-load.ts';
import { writePlaces } from '../store/places-write.ts';
import { type CityPlan, generateInSpaceOrder, generatePlan } from './generator.ts';

export interface GenerateOptions {
  count: number;
  seed: string;
  batchSize?: number;
  /** Generate around these cities only (tests, benchmarks); default: every city of 15,000 people or more. */
  cities?: readonly City[];
  /** How many places around which cities, instead of `count` places around cities drawn by population. */
  plan?: readonly CityPlan[];
  /** Called after each batch with the number of places written so far. */
  onProgress?: (done: number, total: number) => void;
}

export const MAX_GENERATE = 50_000_000;

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
  const batches = () =>
    options.plan
      ? generatePlan(input, options.plan, batchSize)
      : generateInSpaceOrder(input, options.count, batchSize);
  const load = async (target: Queryable) => {
    let written = 0;
    // The next batch is made while the database writes the previous one.
    let writing: Promise<void> | undefined;
    for (const batch of batches()) {
      await writing;
      if (writing) options.onProgress?.(written, total);
      writing = writePlaces(target, batch, (id) => chainNames.get(id));
      writing.catch(() => undefined); // awaited on the next turn; a failure while generating is not unhandled
      written += batch.length;
    }
    await writing;
    options.onProgress?.(written, total);
    return written;
  };
  // Large runs load in one transaction with the indexes rebuilt at the end (all or nothing); small runs write
  // batch by batch into the indexed table (a run cut short keeps whole batches; the same seed completes it).
  const written = worthRebuilding(total, await estimatedPlaces(db))
    ? await withIndexesRebuilt(db, load)
    : await load(db);
  return { written, ms: performance.now() - started };
}
