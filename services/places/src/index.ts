import type { AppDeps, AuthenticateHook, ServiceModule } from '@cairn/kit';
import {
  createMemoryRateLimiter,
  type RateLimiter,
  type RateStore,
  withLocalFallback,
} from './access/rate-limit.ts';
import { createLeasedRateLimiter } from './access/rate-limit-lease.ts';
import { createPostgresBuckets } from './access/rate-limit-postgres.ts';
import { createRedisBuckets } from './access/rate-limit-redis.ts';
import { createUsageCounter, type UsageCounter } from './access/usage.ts';
import { DEFAULT_PLACES_CONFIG, type PlacesConfig } from './config.ts';
import { seedDemo } from './demo.ts';
import type { PlacesDeps } from './deps.ts';
import { placesMigrations } from './migrations.ts';
import { gazetteer } from './reference/cities.ts';
import { ensureReferenceData, loadReference, type Reference } from './reference/reference.ts';
import { placesRoutes } from './routes/index.ts';
import { photoFilesRoutes } from './routes/photo-files.ts';
import { cursorSecret } from './store/meta.ts';

export {
  DEFAULT_EDITS_CONFIG,
  DEFAULT_PLACES_CONFIG,
  type EditsConfig,
  loadEditsConfig,
  loadPlacesConfig,
  type PlacesConfig,
} from './config.ts';
export { OS_COLUMNS, type PlaceRecord } from './data/place-record.ts';
export { DEMO_SEED, demoSourcesDigest, seedDemo } from './demo.ts';
export type { PlacesDeps } from './deps.ts';
export * from './edits/index.ts';
export { type GenerateOptions, generatePlaces, MAX_GENERATE } from './generate/run.ts';
export { BadRow, type RowValue, toPlaceRecord } from './import/row.ts';
export { type ImportOptions, type ImportResult, importPlacesFile } from './import/run.ts';
export { photosOfPlace, tipsOfPlace } from './media/endpoints.ts';
export { placesMigrations } from './migrations.ts';
export { type City, gazetteer } from './reference/cities.ts';
export { ensureReferenceData, loadReference } from './reference/reference.ts';
export { searchQuery } from './routes/validation.ts';
export { placeDetails } from './search/details.ts';
export type { RawQuery } from './search/params.ts';
export { type SearchAnswer, search } from './search/search.ts';
export { namesOf, type PlaceNames, writePlaces } from './store/places-write.ts';
export { listUsage, type UsageRow } from './store/usage.ts';
export { type ContributorAccuracy, contributorAccuracy, type OutcomeCounts } from './trust/contributor.ts';

export interface Places {
  module: ServiceModule;
  deps: PlacesDeps;
  usage: UsageCounter;
  limiter: RateLimiter;
  /** Loads reference data (writing it on first start), starts usage flushing; seeds the demo set if asked. */
  start(options?: { seedDemo?: boolean }): Promise<{ demo?: { seeded: number; ms: number } }>;
  /** Re-reads categories and chains (after an import added some). */
  reload(): Promise<void>;
  stop(): Promise<void>;
}

const REFERENCE_CHANNEL = 'cairn_places_reference';

function requiredRedisUrl(config: PlacesConfig): string {
  if (!config.redisUrl) throw new Error('places: the rate limit store is redis but no REDIS_URL is set');
  return config.redisUrl;
}

export function createPlaces(
  app: Pick<AppDeps, 'db' | 'clock' | 'config' | 'log'>,
  options: { authenticate: AuthenticateHook; config?: Readonly<Partial<PlacesConfig>> },
): Places {
  const config: Readonly<PlacesConfig> = { ...DEFAULT_PLACES_CONFIG, ...options.config };
  let reference: Reference | undefined;
  let secret: Promise<Buffer> | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  const deps: PlacesDeps = {
    db: app.db,
    clock: app.clock,
    publicUrl: app.config.publicUrl,
    reference() {
      if (!reference) throw new Error('places service used before start()');
      return reference;
    },
    gazetteer,
    cursorSecret() {
      secret ??= cursorSecret(app.db).catch((error: unknown) => {
        secret = undefined;
        throw error;
      });
      return secret;
    },
    edits: config.edits,
  };
  const usage = createUsageCounter(app.db, app.clock);
  const rateOptions = { rate: config.rateLimit, burst: config.rateBurst };
  const local = createMemoryRateLimiter(app.clock, rateOptions);
  const rateStore: RateStore =
    config.rateStore ?? (config.redisUrl ? 'redis' : app.db.engine === 'postgres' ? 'database' : 'memory');
  // The routes hold this one; start() puts the shared store behind it, stop() closes it (Redis's connection).
  let current: RateLimiter = local;
  const limiter: RateLimiter = {
    get store() {
      return current.store;
    },
    take: (credentialId) => current.take(credentialId),
    close: () => current.close(),
    // The shared stores' buckets are rows (restored with the database); the local ones, and the tokens this
    // process holds from the shared buckets, are in memory.
    clear: () => {
      local.clear?.();
      if (current !== local) current.clear?.();
    },
  };
  function sharedLimiter(): RateLimiter {
    if (rateStore === 'memory') return local;
    const buckets =
      rateStore === 'database'
        ? createPostgresBuckets(app.db, app.clock, rateOptions)
        : createRedisBuckets(requiredRedisUrl(config), app.clock, rateOptions);
    const shared = createLeasedRateLimiter(buckets, app.clock, rateOptions);
    return withLocalFallback(shared, local, app.clock, app.log);
  }
  async function reload() {
    reference = await loadReference(app.db);
  }
  /** Another process imported categories or chains: read them again; on failure keep the ones loaded. */
  async function reloadAfterNotice() {
    try {
      await reload();
    } catch (error) {
      app.log.error(
        { err: error, channel: REFERENCE_CHANNEL },
        'places: could not re-read categories and chains after another process changed them; serving the ones loaded before (restart to retry)',
      );
    }
  }
  return {
    deps,
    usage,
    limiter,
    module: {
      name: 'places',
      title: 'Places API',
      migrations: placesMigrations,
      // The API (version header, credential, rate limit) and, beside it, the public photo images.
      plugin: async (scope) => {
        await scope.register(placesRoutes(deps, { authenticate: options.authenticate, limiter, usage }));
        await scope.register(photoFilesRoutes);
      },
    },
    async start(startOptions = {}) {
      await ensureReferenceData(app.db);
      if (current === local) current = sharedLimiter();
      await reload();
      unlisten ??= await app.db.listen(REFERENCE_CHANNEL, () => void reloadAfterNotice());
      usage.start();
      const demo = startOptions.seedDemo ? await seedDemo(app.db, config.demoCount) : undefined;
      return demo ? { demo } : {};
    },
    async reload() {
      await reload();
      await app.db.notify(REFERENCE_CHANNEL, 'changed');
    },
    async stop() {
      await unlisten?.();
      unlisten = undefined;
      await usage.stop();
      await current.close();
      current = local;
    },
  };
}
