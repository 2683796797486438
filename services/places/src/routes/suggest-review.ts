import type { FastifyInstance } from 'fastify';
import type { PlacesDeps } from '../deps.ts';
import { reviewQueue } from '../edits/review.ts';
import { editRoute } from './edit-route.ts';
import { ReviewQuery, ReviewResponse } from './edit-schemas.ts';

export function suggestReviewRoute(app: FastifyInstance, deps: PlacesDeps) {
  editRoute(app, deps, {
    method: 'GET',
    url: '/places/suggest/review',
    summary: 'Places with pending suggested edits for the caller to vote on',
    querystring: ReviewQuery,
    response: ReviewResponse,
    handler: reviewQueue,
  });
}
