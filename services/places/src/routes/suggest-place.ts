import type { FastifyInstance } from 'fastify';
import type { PlacesDeps } from '../deps.ts';
import { suggestPlace } from '../edits/new-place.ts';
import { editRoute } from './edit-route.ts';
import { SuggestPlaceQuery, SuggestPlaceResponse } from './edit-schemas.ts';

export function suggestPlaceRoute(app: FastifyInstance, deps: PlacesDeps) {
  editRoute(app, deps, {
    method: 'POST',
    url: '/places/suggest/place',
    summary: 'Suggest a place that is not in the store',
    querystring: SuggestPlaceQuery,
    response: SuggestPlaceResponse,
    handler: suggestPlace,
  });
}
