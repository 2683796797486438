import type { FastifyInstance } from 'fastify';
import type { PlacesDeps } from '../deps.ts';
import { suggestMerge } from '../edits/flag-merge.ts';
import { editRoute } from './edit-route.ts';
import { PlaceIdParams, SuggestMergeQuery, SuggestResponse } from './edit-schemas.ts';
import { PLACE_ID_PARAM } from './schemas.ts';

export function suggestMergeRoute(app: FastifyInstance, deps: PlacesDeps) {
  editRoute(app, deps, {
    method: 'POST',
    url: `/places/${PLACE_ID_PARAM}/suggest/merge`,
    summary: 'Suggest that other places are duplicates of this one',
    params: PlaceIdParams,
    querystring: SuggestMergeQuery,
    response: SuggestResponse,
    handler: suggestMerge,
  });
}
