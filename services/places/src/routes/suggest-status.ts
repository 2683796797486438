import type { FastifyInstance } from 'fastify';
import type { PlacesDeps } from '../deps.ts';
import { editStatus } from '../edits/status.ts';
import { editRoute } from './edit-route.ts';
import { StatusQuery, StatusResponse } from './edit-schemas.ts';

export function suggestStatusRoute(app: FastifyInstance, deps: PlacesDeps) {
  editRoute(app, deps, {
    method: 'GET',
    url: '/places/suggest/status',
    summary: 'The state of suggested edits: those named, or the caller’s own',
    querystring: StatusQuery,
    response: StatusResponse,
    handler: editStatus,
  });
}
