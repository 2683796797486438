import type { FastifyInstance } from 'fastify';
import type { PlacesDeps } from '../deps.ts';
import { suggestRemove } from '../edits/suggest.ts';
import { editRoute } from './edit-route.ts';
import { PlaceIdParams, SuggestRemoveQuery, SuggestResponse } from './edit-schemas.ts';
import { PLACE_ID_PARAM } from './schemas.ts';

export function suggestRemoveRoute(app: FastifyInstance, deps: PlacesDeps) {
  editRoute(app, deps, {
    method: 'POST',
    url: `/places/${PLACE_ID_PARAM}/suggest/remove`,
    summary: 'Suggest that a place is closed, or should be removed (with a reason)',
    params: PlaceIdParams,
    querystring: SuggestRemoveQuery,
    response: SuggestResponse,
    handler: suggestRemove,
  });
}
