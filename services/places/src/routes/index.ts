import {
  type AuthenticateHook,
  errorHandler,
  messageShape,
  requireVersionHeader,
  tooManyRequests,
} from '@cairn/kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimiter } from '../access/rate-limit.ts';
import type { UsageCounter } from '../access/usage.ts';
import type { PlacesDeps } from '../deps.ts';
import { autocompleteRoute } from './autocomplete.ts';
import { categoriesRoute } from './categories.ts';
import { detailsRoute } from './details.ts';
import { historyRoute } from './history.ts';
import { matchRoute } from './match.ts';
import { photosRoute } from './photos.ts';
import { searchRoute } from './search.ts';
import { suggestEditRoute } from './suggest-edit.ts';
import { suggestFlagRoute } from './suggest-flag.ts';
import { suggestMergeRoute } from './suggest-merge.ts';
import { suggestPlaceRoute } from './suggest-place.ts';
import { suggestRemoveRoute } from './suggest-remove.ts';
import { suggestReviewRoute } from './suggest-review.ts';
import { suggestStatusRoute } from './suggest-status.ts';
import { tipsRoute } from './tips.ts';
import { placesSchemaErrors, placesValidatorCompiler } from './validation.ts';
import { voteRoute } from './vote.ts';

export const PLACES_API_VERSION_HEADER = 'X-Places-Api-Version';

/**
 * The places API. Every call: version header, then the bearer credential (service key, managed user's or
 * OAuth user's token), then the credential's rate limit; each call is counted against its credential. The
 * credential's organization, app, user and kind go on the error handler's log lines (kit's errorHandler).
 */
export function placesRoutes(
  deps: PlacesDeps,
  access: { authenticate: AuthenticateHook; limiter: RateLimiter; usage: UsageCounter },
) {
  return async function placesApi(app: FastifyInstance) {
    app.setErrorHandler(errorHandler(messageShape));
    app.setValidatorCompiler(placesValidatorCompiler);
    app.setSchemaErrorFormatter(placesSchemaErrors);
    app.addHook('onRequest', requireVersionHeader(PLACES_API_VERSION_HEADER));
    app.addHook('onRequest', access.authenticate);
    app.addHook('onRequest', async function rateLimit(request: FastifyRequest) {
      const auth = request.auth!;
      const endpoint = request.routeOptions.url ?? request.url.split('?')[0]!;
      const taken = await access.limiter.take(auth.credentialId);
      access.usage.record(auth, endpoint, !taken.ok);
      if (!taken.ok) {
        throw tooManyRequests(
          `Rate limit exceeded for this credential; retry after ${taken.retryAfterSeconds} s`,
          taken.retryAfterSeconds,
        );
      }
    });
    searchRoute(app, deps);
    categoriesRoute(app, deps);
    matchRoute(app, deps);
    detailsRoute(app, deps);
    autocompleteRoute(app, deps);
    tipsRoute(app, deps);
    photosRoute(app, deps);
    suggestEditRoute(app, deps);
    suggestRemoveRoute(app, deps);
    suggestFlagRoute(app, deps);
    suggestMergeRoute(app, deps);
    suggestPlaceRoute(app, deps);
    suggestStatusRoute(app, deps);
    suggestReviewRoute(app, deps);
    voteRoute(app, deps);
    historyRoute(app, deps);
  };
}
