import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { PlacesDeps } from '../deps.ts';
import { photosOfPlace } from '../media/endpoints.ts';
import {
  DetailsParams,
  errorResponses,
  Photo,
  PhotosQuery,
  PLACE_ID_PARAM,
  PlacesHeaders,
  stringify,
} from './schemas.ts';

export function photosRoute(app: FastifyInstance, deps: PlacesDeps) {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    `/places/${PLACE_ID_PARAM}/photos`,
    {
      schema: {
        tags: ['places'],
        summary: 'Photos of a place; a photo’s URL is prefix + size + suffix',
        security: [{ bearer: [] }],
        headers: PlacesHeaders,
        params: DetailsParams,
        querystring: PhotosQuery,
        response: { 200: Type.Array(Photo), ...errorResponses },
      },
      serializerCompiler: stringify,
    },
    async (request) => photosOfPlace(deps, request.params.fsq_place_id, request.query),
  );
}
