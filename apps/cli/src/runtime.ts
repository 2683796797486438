import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createEdge, type Edge, loadEdgeConfig } from '@cairn/edge';
import { createIdentity, type Identity } from '@cairn/identity';
import {
  type AppDeps,
  type Clock,
  type Config,
  createLogger,
  createMetrics,
  type Db,
  type Logger,
  migrate,
  openDb,
  type Queryable,
  type ServiceModule,
  systemClock,
} from '@cairn/kit';
import { createPlacemakers, loadPlacemakersConfig, type Placemakers } from '@cairn/placemakers';
import { createPlaces, loadPlacesConfig, type Places } from '@cairn/places';
import { placesBackend } from './places-backend.ts';
import { prepareSandboxDatabase } from './sandbox/database.ts';

async function hasCairnTables(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ t: string | null }>("SELECT to_regclass('cairn_migrations')::text AS t");
  return rows[0]?.t != null;
}

/** Every service, wired in dependency order on one set of dependencies. */
export interface Services {
  identity: Identity;
  places: Places;
  placemakers: Placemakers;
  edge: Edge;
  modules: ServiceModule[];
}

/** The composition root: the one place where services meet (tests compose them on a test database too). */
export function composeServices(deps: AppDeps, env: NodeJS.ProcessEnv = process.env): Services {
  const identity = createIdentity(deps);
  const places = createPlaces(deps, { authenticate: identity.authenticate, config: loadPlacesConfig(env) });
  const placemakers = createPlacemakers(
    identity.deps,
    placesBackend(places),
    deps.config.publicUrl,
    loadPlacemakersConfig(env),
  );
  const edge = createEdge(deps, loadEdgeConfig(env));
  return {
    identity,
    places,
    placemakers,
    edge,
    modules: [identity.module, places.module, placemakers.module, edge.module],
  };
}

export interface Runtime extends Services {
  deps: AppDeps;
  services: ServiceModule[];
  close(): Promise<void>;
}

/** A command other than serve and migrate found no Cairn database where the configuration points. */
export class NoDatabaseError extends Error {
  override name = 'NoDatabaseError';
}

/**
 * Opens the database and the services. With `create: false`, a database that does not exist yet (no
 * embedded one in CAIRN_DATA_DIR, no Cairn tables at DATABASE_URL) is refused before anything is written.
 */
export async function openRuntime(
  config: Readonly<Config>,
  options: {
    log?: Logger;
    clock?: Clock;
    create?: boolean;
    /** Sandbox mode: refuse a database not created in it, mark a new one (before the migrations). */
    sandbox?: boolean;
    /** An open database to use instead of the configured one (startCairn's in-memory PGlite); closed by close(). */
    db?: Db;
    /** Where the services read their own settings (PLACES_*, EDGE_*, CAIRN_CRS_DIR). Default process.env. */
    env?: NodeJS.ProcessEnv;
    /** A new embedded database starts as a copy of this data directory when it exists (demo-database.ts). */
    initialDataDir?: string;
  } = {},
): Promise<Runtime> {
  const log = options.log ?? createLogger(config.logLevel);
  if (options.create === false && !config.databaseUrl && !existsSync(join(config.dataDir, 'pgdata'))) {
    throw new NoDatabaseError(
      `there is no Cairn database in ${resolve(config.dataDir)} (CAIRN_DATA_DIR) and no server running there; nothing was created. Start Cairn with "cairn serve" (or create the database with "cairn migrate"), or point CAIRN_DATA_DIR or DATABASE_URL at an existing one`,
    );
  }
  const db =
    options.db ??
    (await openDb(
      config,
      log,
      options.initialDataDir !== undefined ? { initialDataDir: options.initialDataDir } : {},
    ));
  try {
    if (options.create === false && config.databaseUrl && !(await hasCairnTables(db))) {
      throw new NoDatabaseError(
        'the database at DATABASE_URL has no Cairn tables; nothing was created. Create them with "cairn migrate" (or "cairn serve"), or point DATABASE_URL at an existing Cairn database',
      );
    }
    if (options.sandbox) await prepareSandboxDatabase(db);
    const deps: AppDeps = { config, db, clock: options.clock ?? systemClock, log, metrics: createMetrics() };
    const composed = composeServices(deps, options.env);
    await migrate(
      db,
      composed.modules.flatMap((s) => s.migrations),
    );
    return {
      ...composed,
      deps,
      services: composed.modules,
      async close() {
        await composed.edge.stopProxy();
        await composed.places.stop();
        await composed.identity.stop();
        await db.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}
