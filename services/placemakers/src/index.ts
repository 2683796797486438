import type { IdentityDeps } from '@cairn/identity';
import type { ServiceModule } from '@cairn/kit';
import { assertBuilt } from '@cairn/kit/web-app';
import cookie from '@fastify/cookie';
import type { PlacemakersBackend } from './backend.ts';
import { placemakersRoutes } from './server/routes.ts';
import { EDITOR_UI } from './web-app.ts';

export type { Params, PlacemakersBackend, SuggestionKind } from './backend.ts';
export { editorAuth } from './server/routes.ts';

export interface Placemakers {
  module: ServiceModule;
  /** Checks that the editing UI was built (by npm run build); it never builds it. */
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
    start: async () => assertBuilt(EDITOR_UI, 'The place editor (services/placemakers/web)'),
  };
}
