import { oauthError } from '../errors.ts';
import { pkceRequired, pkceRequiredMessage } from '../pkce-policy.ts';
import type { AuthorizeStep } from './request.ts';

const CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * RFC 7636 with RFC 9700 §2.1.1: S256 only (plain is refused); a method without a challenge is an error;
 * an app that requires PKCE gets invalid_request without a challenge (RFC 7636 §4.4.1).
 */
export const checkPkce: AuthorizeStep = (params, request) => {
  const challenge = params.values.code_challenge;
  const method = params.values.code_challenge_method;
  if (challenge === undefined) {
    if (method !== undefined)
      throw oauthError.invalidRequest('code_challenge_method is given without code_challenge');
    if (pkceRequired(request.app!)) throw oauthError.invalidRequest(pkceRequiredMessage(request.app!));
    return;
  }
  if (method !== 'S256') {
    throw oauthError.invalidRequest(
      method === undefined || method === 'plain'
        ? 'Only code_challenge_method=S256 is supported; send it with the code_challenge'
        : `code_challenge_method "${method.slice(0, 20)}" is not supported; use S256`,
    );
  }
  if (!CHALLENGE.test(challenge)) {
    throw oauthError.invalidRequest(
      'code_challenge must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (base64url of SHA-256)',
    );
  }
  request.codeChallenge = challenge;
};
