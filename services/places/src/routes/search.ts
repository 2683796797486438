import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { PlacesDeps } from '../deps.ts';
import { nextLink, search } from '../search/search.ts';
import { errorResponses, PlacesHeaders, SearchQuery, SearchResponse } from './schemas.ts';

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
      // The schemas document the answers; the body is written by JSON.stringify, which gives the same text
      // (renderPlace puts a Place's fields in the schema's order) in about half the time of the schema-driven
      // serializer, which goes through each place's open-ended properties one by one.
      serializerCompiler: () => (data) => JSON.stringify(data),
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
