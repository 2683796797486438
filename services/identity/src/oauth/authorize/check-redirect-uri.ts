import { redirectUriMatches } from '../../apps/redirect-uris.ts';
import { pageError } from '../errors.ts';
import type { AuthorizeStep } from './request.ts';

/** RFC 9700 §4.1.3: redirect_uri is one of the app's registered URIs, compared as strings. */
export const checkRedirectUri: AuthorizeStep = (params, request) => {
  const uri = params.values.redirect_uri;
  if (params.repeated.has('redirect_uri')) throw pageError('The request names redirect_uri more than once.');
  if (!uri) throw pageError('The request has no redirect_uri.');
  if (!redirectUriMatches(request.app!.redirectUris, uri)) {
    throw pageError(`The redirect_uri "${uri.slice(0, 200)}" is not registered for ${request.app!.name}.`);
  }
  request.redirectUri = uri;
};
