import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { PlacesDeps } from '../deps.ts';
import { tipsOfPlace } from '../media/endpoints.ts';
import {
  DetailsParams,
  errorResponses,
  PLACE_ID_PARAM,
  PlacesHeaders,
  stringify,
  Tip,
  TipsQuery,
} from './schemas.ts';

export function tipsRoute(app: FastifyInstance, deps: PlacesDeps) {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    `/places/${PLACE_ID_PARAM}/tips`,
    {
      schema: {
        tags: ['places'],
        summary: 'Tips left at a place',
        security: [{ bearer: [] }],
        headers: PlacesHeaders,
        params: DetailsParams,
        querystring: TipsQuery,
        response: { 200: Type.Array(Tip), ...errorResponses },
      },
      serializerCompiler: stringify,
    },
    async (request) => tipsOfPlace(deps, request.params.fsq_place_id, request.query),
  );
}
