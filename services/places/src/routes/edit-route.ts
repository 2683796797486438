import type { AuthContext } from '@cairn/kit';
import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import type { PlacesDeps } from '../deps.ts';
import type { ApiParams } from '../edits/params.ts';
import { errorResponses, PlacesHeaders } from './schemas.ts';

const ErrorBody = errorResponses[400];

/**
 * One suggested-edit endpoint: its schema for the OpenAPI description, and a handler that passes the query
 * and path parameters, by their API names, with the caller's auth context, to the service function.
 */
export function editRoute(
  app: FastifyInstance,
  deps: PlacesDeps,
  route: {
    method: 'GET' | 'POST';
    url: string;
    summary: string;
    params?: TSchema;
    querystring: TSchema;
    response: TSchema;
    handler: (deps: PlacesDeps, auth: AuthContext, params: ApiParams) => Promise<unknown>;
  },
) {
  app.route({
    method: route.method,
    url: route.url,
    schema: {
      tags: ['places', 'suggested edits'],
      summary: route.summary,
      security: [{ bearer: [] }],
      headers: PlacesHeaders,
      ...(route.params ? { params: route.params } : {}),
      querystring: route.querystring,
      response: { 200: route.response, ...errorResponses, 403: ErrorBody, 409: ErrorBody },
    },
    handler: async (request) =>
      route.handler(deps, request.auth!, {
        ...(request.query as ApiParams),
        ...(request.params as Record<string, string>),
      }),
  });
}
