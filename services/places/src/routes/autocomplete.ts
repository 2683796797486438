import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { PlacesDeps } from '../deps.ts';
import { autocomplete } from '../search/autocomplete.ts';
import { AutocompleteQuery, AutocompleteResponse, errorResponses, PlacesHeaders } from './schemas.ts';

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
    },
    async (request) => autocomplete(deps, request.query),
  );
}
