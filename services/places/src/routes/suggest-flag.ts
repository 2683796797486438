import type { FastifyInstance } from 'fastify';
import type { PlacesDeps } from '../deps.ts';
import { suggestFlag } from '../edits/flag-merge.ts';
import { editRoute } from './edit-route.ts';
import { PlaceIdParams, SuggestFlagQuery, SuggestResponse } from './edit-schemas.ts';
import { PLACE_ID_PARAM } from './schemas.ts';

export function suggestFlagRoute(app: FastifyInstance, deps: PlacesDeps) {
  editRoute(app, deps, {
    method: 'POST',
    url: `/places/${PLACE_ID_PARAM}/suggest/flag`,
    summary: 'Flag fields of a place as wrong, or a problem with it, without a correction',
    params: PlaceIdParams,
    querystring: SuggestFlagQuery,
    response: SuggestResponse,
    handler: suggestFlag,
  });
}
