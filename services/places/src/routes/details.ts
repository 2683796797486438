import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { PlacesDeps } from '../deps.ts';
import { placeDetails } from '../search/details.ts';
import {
  DetailsParams,
  DetailsQuery,
  errorResponses,
  PLACE_ID_PARAM,
  Place,
  PlacesHeaders,
  stringify,
} from './schemas.ts';

export function detailsRoute(app: FastifyInstance, deps: PlacesDeps) {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    `/places/${PLACE_ID_PARAM}`,
    {
      schema: {
        tags: ['places'],
        summary: 'One place by its id',
        security: [{ bearer: [] }],
        headers: PlacesHeaders,
        params: DetailsParams,
        querystring: DetailsQuery,
        response: { 200: Place, ...errorResponses },
      },
      serializerCompiler: stringify,
    },
    async (request) => placeDetails(deps, request.params.fsq_place_id, request.query),
  );
}
