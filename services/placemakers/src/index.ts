import type { IdentityDeps } from '@cairn/identity';
import type { ServiceModule } from '@cairn/kit';
import cookie from '@fastify/cookie';
import type { PlacemakersBackend } from './backend.ts';
import { buildEditorUi } from './build.ts';
import { placemakersRoutes } from './server/routes.ts';

export type { Params, PlacemakersBackend, SuggestionKind } from './backend.ts';
export { buildEditorUi } from './build.ts';
export { editorAuth } from './server/routes.ts';

export interface Placemakers {
  module: ServiceModule;
  /** Builds the web app when it is missing or stale (a few seconds, once). */
  start(): Promise<void>;
}

export function createPlacemakers(
  identity: IdentityDeps,
  backend: PlacemakersBackend,
  publicUrl: string,
): Placemakers {
  return {
    module: {
      name: 'placemakers',
      title: 'Embedded place-editing UI',
      migrations: [],
      plugin: async (app) => {
        await app.register(cookie);
        await app.register(placemakersRoutes(identity, backend, publicUrl));
      },
    },
    start: () => buildEditorUi({ quiet: true }),
  };
}
