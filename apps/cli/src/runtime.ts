import { createIdentity, type Identity } from '@cairn/identity';
import {
  type AppDeps,
  type Clock,
  type Config,
  createLogger,
  createMetrics,
  type Logger,
  migrate,
  openDb,
  type ServiceModule,
  systemClock,
} from '@cairn/kit';
import { createPlaces, loadPlacesConfig, type Places } from '@cairn/places';

/** The composition root: one database, the services on it, wired in dependency order. */
export interface Runtime {
  deps: AppDeps;
  identity: Identity;
  places: Places;
  services: ServiceModule[];
  close(): Promise<void>;
}

export async function openRuntime(
  config: Readonly<Config>,
  options: { log?: Logger; clock?: Clock } = {},
): Promise<Runtime> {
  const log = options.log ?? createLogger(config.logLevel);
  const db = await openDb(config);
  try {
    const deps: AppDeps = { config, db, clock: options.clock ?? systemClock, log, metrics: createMetrics() };
    const identity = createIdentity(deps);
    const places = createPlaces(deps, {
      resolveBearer: identity.resolveBearer,
      config: loadPlacesConfig(process.env),
    });
    const services = [identity.module, places.module];
    await migrate(
      db,
      services.flatMap((s) => s.migrations),
    );
    return {
      deps,
      identity,
      places,
      services,
      async close() {
        await places.stop();
        await identity.stop();
        await db.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}
