import type { FastifyInstance } from 'fastify';
import type { PlacesDeps } from '../deps.ts';
import { placeHistory } from '../edits/history.ts';
import { editRoute } from './edit-route.ts';
import { HistoryQuery, HistoryResponse, PlaceIdParams } from './edit-schemas.ts';
import { PLACE_ID_PARAM } from './schemas.ts';

export function historyRoute(app: FastifyInstance, deps: PlacesDeps) {
  editRoute(app, deps, {
    method: 'GET',
    url: `/places/${PLACE_ID_PARAM}/history`,
    summary: 'Changes applied to a place by accepted edits, and rollbacks (our extension)',
    params: PlaceIdParams,
    querystring: HistoryQuery,
    response: HistoryResponse,
    handler: placeHistory,
  });
}
