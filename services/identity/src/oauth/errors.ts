import { CairnError } from '@cairn/kit';

/**
 * RFC 6749 error codes (§4.1.2.1 authorization, §5.2 token). `code` is the wire `error`; the message is the
 * `error_description`. Authorization errors found before the client and redirect URI are known are shown
 * as a page and never redirected (§4.1.2.1, RFC 9700 §4.11: no open redirector).
 */
export const oauthError = {
  invalidRequest: (d: string) => new CairnError(400, 'invalid_request', d),
  invalidClient: (d: string) => new CairnError(401, 'invalid_client', d),
  invalidGrant: (d: string) => new CairnError(400, 'invalid_grant', d),
  unauthorizedClient: (d: string) => new CairnError(400, 'unauthorized_client', d),
  unsupportedGrantType: (d: string) => new CairnError(400, 'unsupported_grant_type', d),
  unsupportedResponseType: (d: string) => new CairnError(400, 'unsupported_response_type', d),
  accessDenied: (d: string) => new CairnError(403, 'access_denied', d),
};

/** An authorization error that must be shown to the person rather than sent to the redirect URI. */
export function pageError(message: string): CairnError {
  return new CairnError(400, 'invalid_request', message, { details: { showAsPage: true } });
}

export function isPageError(error: CairnError): boolean {
  return error.details.showAsPage === true;
}
