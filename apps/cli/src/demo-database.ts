import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { edgeMigrations } from '@cairn/edge';
import { identityMigrations } from '@cairn/identity';
import { createLogger, loadConfig, migrationsDigest, pgliteOptions, wrapPglite } from '@cairn/kit';
import { DEMO_SEED, demoSourcesDigest, loadPlacesConfig, placesMigrations } from '@cairn/places';
import { PGlite } from '@electric-sql/pglite';
import { openRuntime } from './runtime.ts';

/**
 * The first start's database, built once at install (`npm install` runs scripts/build-demo-database.ts): the
 * migrations, the reference data and the demo places, as PGlite's dump of a data directory. A first `cairn
 * serve` on the embedded database starts from it rather than generating the places (tens of seconds), when
 * it was built for the same migrations, demo code and PLACES_DEMO_COUNT; otherwise it generates them as before.
 */
const FORMAT = 1;

// Beside the sources, not in dist/ (the package build empties that).
const DIRECTORY = join(import.meta.dirname, '..', '.cache', 'demo-database');

/** Where the dump for this environment's PLACES_DEMO_COUNT is (or would be), or undefined for no demo. */
export function demoDatabaseFile(env: NodeJS.ProcessEnv = process.env): string | undefined {
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
  return join(DIRECTORY, `${key}.tar`);
}

/** Builds the dump for this environment unless it is there; returns its path and whether it was built now. */
export async function buildDemoDatabase(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ file: string; built: boolean; places: number } | undefined> {
  const file = demoDatabaseFile(env);
  if (!file) return undefined;
  if (existsSync(file)) return { file, built: false, places: 0 };
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
    const dump = new Uint8Array(await (await pg.dumpDataDir('none')).arrayBuffer());
    mkdirSync(DIRECTORY, { recursive: true });
    // Written whole, then renamed: a start never reads half a dump.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, dump);
    renameSync(partial, file);
  } finally {
    await runtime.close();
  }
  return { file, built: true, places };
}
