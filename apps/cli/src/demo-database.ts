import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { edgeMigrations } from '@cairn/edge';
import { identityMigrations } from '@cairn/identity';
import { createLogger, loadConfig, migrationsDigest, pgliteOptions, wrapPglite } from '@cairn/kit';
import { DEMO_SEED, demoSourcesDigest, loadPlacesConfig, placesMigrations } from '@cairn/places';
import { PGlite } from '@electric-sql/pglite';
import { openRuntime } from './runtime.ts';

/**
 * The first start's database, built once at install (`npm install` runs scripts/build-demo-database.ts): the
 * migrations, the reference data and the demo places, as a closed PGlite data directory. A first `cairn serve`
 * on the embedded database starts from a copy of it (a copy of files, ~270 MB) rather than generating the
 * places (minutes), when it was built for the same migrations, demo code and PLACES_DEMO_COUNT; otherwise it
 * generates them as before.
 */
const FORMAT = 1;

// Beside the sources, not in dist/ (the package build empties that).
const DIRECTORY = join(import.meta.dirname, '..', '.cache', 'demo-database');

/** Where the data directory for this environment's PLACES_DEMO_COUNT is (or would be); undefined for no demo. */
export function demoDatabaseDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const count = loadPlacesConfig(env).demoCount;
  if (count <= 0) return undefined;
  const key = createHash('sha256')
    .update(
      JSON.stringify({
        format: FORMAT,
        migrations: migrationsDigest([...identityMigrations, ...placesMigrations, ...edgeMigrations]),
        demo: demoSourcesDigest(),
        seed: DEMO_SEED,
        count,
      }),
    )
    .digest('hex')
    .slice(0, 24);
  return join(DIRECTORY, key);
}

/** Builds the data directory for this environment unless it is there; returns its path and whether it was built now. */
export async function buildDemoDatabase(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ dir: string; built: boolean; places: number } | undefined> {
  const dir = demoDatabaseDir(env);
  if (!dir) return undefined;
  if (existsSync(join(dir, 'PG_VERSION'))) return { dir, built: false, places: 0 };
  const config = loadConfig({ ...env, DATABASE_URL: '', CAIRN_DATA_DIR: join(DIRECTORY, 'unused') });
  // WAL segments of 1 MB instead of 16: the current segment is in the dump.
  const pg = await PGlite.create({ ...pgliteOptions, initDbStartParams: ['--wal-segsize=1'] });
  await pg.exec('SET wal_recycle = off');
  const runtime = await openRuntime(config, { db: wrapPglite(pg), log: createLogger('warn'), env });
  let places = 0;
  try {
    const started = await runtime.places.start({ seedDemo: true });
    places = started.demo?.seeded ?? 0;
    await runtime.places.stop();
    await pg.query('CHECKPOINT');
    const dump = await pg.dumpDataDir('none');
    // Made in memory (faster), then written out as a data directory, whole, then renamed: a start never
    // copies half of one.
    const partial = `${dir}.${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(DIRECTORY, { recursive: true });
    const files = await PGlite.create(partial, { ...pgliteOptions, loadDataDir: dump });
    await files.close();
    renameSync(partial, dir);
  } finally {
    await runtime.close();
  }
  return { dir, built: true, places };
}
