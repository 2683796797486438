import { createEdge, type Edge, loadEdgeConfig } from '@cairn/edge';
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
import { createPlacemakers, type Placemakers } from '@cairn/placemakers';
import { createPlaces, loadPlacesConfig, type Places } from '@cairn/places';
import { placesBackend } from './places-backend.ts';

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
  const places = createPlaces(deps, { resolveBearer: identity.resolveBearer, config: loadPlacesConfig(env) });
  const placemakers = createPlacemakers(identity.deps, placesBackend(places), deps.config.publicUrl);
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

export async function openRuntime(
  config: Readonly<Config>,
  options: { log?: Logger; clock?: Clock } = {},
): Promise<Runtime> {
  const log = options.log ?? createLogger(config.logLevel);
  const db = await openDb(config, log);
  try {
    const deps: AppDeps = { config, db, clock: options.clock ?? systemClock, log, metrics: createMetrics() };
    const composed = composeServices(deps);
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
