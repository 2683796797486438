import type { FastifyInstance } from 'fastify';
import type { PlacesDeps } from '../deps.ts';
import { vote } from '../edits/vote.ts';
import { editRoute } from './edit-route.ts';
import { EditIdParams, SuggestResponse, VoteQuery } from './edit-schemas.ts';

export function voteRoute(app: FastifyInstance, deps: PlacesDeps) {
  editRoute(app, deps, {
    method: 'POST',
    url: '/places/suggest/:edit_id/vote',
    summary: 'Vote on a pending suggested edit (our extension): approve, reject or skip',
    params: EditIdParams,
    querystring: VoteQuery,
    response: SuggestResponse,
    handler: vote,
  });
}
