import type { IdentityDeps } from '@cairn/identity';
import type { ServiceModule } from '@cairn/kit';
import { assertBuilt } from '@cairn/kit/web-app';
import cookie from '@fastify/cookie';
import type { PlacemakersBackend } from './backend.ts';
import { DEFAULT_PLACEMAKERS_CONFIG, type PlacemakersConfig } from './map/config.ts';
import { assertMapDataBuilt } from './map/data.ts';
import { placemakersRoutes } from './server/routes.ts';
import { EDITOR_UI } from './web-app.ts';

export type { Params, PlacemakersBackend, SuggestionKind } from './backend.ts';
export { loadPlacemakersConfig, type PlacemakersConfig } from './map/config.ts';
export { editorAuth } from './server/routes.ts';

export interface Placemakers {
  module: ServiceModule;
  /** Checks that the editing UI and its map data were built (by npm run build); it never builds them. */
  start(): Promise<void>;
}

export function createPlacemakers(
  identity: IdentityDeps,
  backend: PlacemakersBackend,
  publicUrl: string,
  config: PlacemakersConfig = DEFAULT_PLACEMAKERS_CONFIG,
): Placemakers {
  return {
    module: {
      name: 'placemakers',
      title: 'Embedded place-editing UI',
      migrations: [],
      plugin: async (app) => {
        await app.register(cookie);
        await app.register(placemakersRoutes(identity, backend, publicUrl, config));
      },
    },
    start: async () => {
      assertBuilt(EDITOR_UI, 'The place editor (services/placemakers/web)');
      assertMapDataBuilt();
    },
  };
}
