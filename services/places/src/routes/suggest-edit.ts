import type { FastifyInstance } from 'fastify';
import type { PlacesDeps } from '../deps.ts';
import { suggestEdit } from '../edits/suggest.ts';
import { editRoute } from './edit-route.ts';
import { PlaceIdParams, SuggestEditQuery, SuggestResponse } from './edit-schemas.ts';
import { PLACE_ID_PARAM } from './schemas.ts';

export function suggestEditRoute(app: FastifyInstance, deps: PlacesDeps) {
  editRoute(app, deps, {
    method: 'POST',
    url: `/places/${PLACE_ID_PARAM}/suggest/edit`,
    summary: 'Suggest changes to a place’s fields',
    params: PlaceIdParams,
    querystring: SuggestEditQuery,
    response: SuggestResponse,
    handler: suggestEdit,
  });
}
