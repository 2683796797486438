import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { PlacesDeps } from '../deps.ts';
import { nextLink, search } from '../search/search.ts';
import { errorResponses, PlacesHeaders, SearchQuery, SearchResponse, stringify } from './schemas.ts';

export function searchRoute(app: FastifyInstance, deps: PlacesDeps) {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/places/search',
    {
      schema: {
        tags: ['places'],
        summary: 'Search places by text, location, category, chain, price and opening hours',
        security: [{ bearer: [] }],
        headers: PlacesHeaders,
        querystring: SearchQuery,
        response: { 200: SearchResponse, ...errorResponses },
      },
      serializerCompiler: stringify,
    },
    async (request, reply) => {
      const answer = await search(deps, request.query);
      if (answer.nextCursor) {
        void reply.header('link', nextLink(deps.publicUrl, request.url, '/places/search', answer.nextCursor));
      }
      return answer.body;
    },
  );
}
