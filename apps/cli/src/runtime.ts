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

/** The composition root: one database, the services on it, wired in dependency order. */
export interface Runtime {
  deps: AppDeps;
  identity: Identity;
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
    const services = [identity.module];
    await migrate(
      db,
      services.flatMap((s) => s.migrations),
    );
    return {
      deps,
      identity,
      services,
      async close() {
        await identity.stop();
        await db.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}
