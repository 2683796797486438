import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { PlacesDeps } from '../deps.ts';
import { matchPlace } from '../search/match.ts';
import { errorResponses, MatchQuery, MatchResponse, PlacesHeaders, stringify } from './schemas.ts';

export function matchRoute(app: FastifyInstance, deps: PlacesDeps) {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/places/match',
    {
      schema: {
        tags: ['places'],
        summary: 'The place that is the given business (name and address or ll), with a score',
        security: [{ bearer: [] }],
        headers: PlacesHeaders,
        querystring: MatchQuery,
        response: { 200: MatchResponse, ...errorResponses, 422: Type.Object({ message: Type.String() }) },
      },
      serializerCompiler: stringify,
    },
    async (request) => matchPlace(deps, request.query),
  );
}
