import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { PlacesDeps } from '../deps.ts';
import { autocomplete } from '../search/autocomplete.ts';
import {
  AutocompleteQuery,
  AutocompleteResponse,
  errorResponses,
  PlacesHeaders,
  stringify,
} from './schemas.ts';

export function autocompleteRoute(app: FastifyInstance, deps: PlacesDeps) {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/autocomplete',
    {
      schema: {
        tags: ['places'],
        summary: 'Suggestions (places, searches, cities) for partly typed text',
        security: [{ bearer: [] }],
        headers: PlacesHeaders,
        querystring: AutocompleteQuery,
        response: { 200: AutocompleteResponse, ...errorResponses },
      },
      serializerCompiler: stringify,
    },
    // The suggestions are built as plain records (renderPlace's places); the schema says their shape.
    async (request) => (await autocomplete(deps, request.query)) as Static<typeof AutocompleteResponse>,
  );
}
