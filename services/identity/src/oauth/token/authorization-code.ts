import { createHash } from 'node:crypto';
import { generateToken, hashToken, newId } from '@cairn/kit';
import type { App } from '../../apps/service.ts';
import { announceRevoked } from '../../auth/revocations.ts';
import type { IdentityDeps } from '../../deps.ts';
import { insertAccessToken, revokeTokensOfCode } from '../../store/access-tokens.ts';
import { lockAuthorizationCode, markAuthorizationCodeConsumed } from '../../store/authorization-codes.ts';
import { oauthError } from '../errors.ts';
import type { Params } from '../params.ts';
import { pkceRequired } from '../pkce-policy.ts';
import { scopeOf } from '../scopes.ts';

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** RFC 6749 §5.1: no expires_in (the seed's tokens are permanent) and no refresh token. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  /** What the person consented to, space-separated (scopes.ts). */
  scope: string;
}

function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/**
 * grant_type=authorization_code (RFC 6749 §4.1.3, RFC 7636 §4.6, RFC 9700 §2.1.1 and §4.2.4).
 * Only a successful exchange spends the code: a failed attempt (wrong redirect_uri, code_verifier, client)
 * leaves it as it was, so a client may correct itself within the code's ten minutes, and "already used" is
 * said only of a code that did produce a token. A code replayed after success revokes that token
 * (RFC 9700 §4.2.4). The row is locked for the exchange, so two concurrent exchanges yield one token.
 * `options.accessToken` is the token's value when the caller chose it (fixtures that name their tokens);
 * every check runs the same.
 */
export async function exchangeAuthorizationCode(
  deps: IdentityDeps,
  app: App,
  params: Params,
  options: { accessToken?: string } = {},
): Promise<TokenResponse> {
  const code = params.values.code;
  if (!code) throw oauthError.invalidRequest('Parameter code is required');
  const redirectUri = params.values.redirect_uri;
  const verifier = params.values.code_verifier;
  const now = deps.clock.now();

  const outcome = await deps.db.transaction(async (tx) => {
    const found = await lockAuthorizationCode(tx, hashToken(code));
    if (!found) return { error: oauthError.invalidGrant('The authorization code is not valid') };
    const grant = found.code;
    if (found.consumed) {
      if (grant.appId !== app.id)
        return { error: oauthError.invalidGrant('The authorization code is not valid') };
      const revoked = await revokeTokensOfCode(tx, grant.id, now);
      await announceRevoked(tx, revoked);
      return {
        revoked,
        error: oauthError.invalidGrant(
          'The authorization code was already used; the access tokens issued from it have been revoked',
        ),
      };
    }
    if (grant.appId !== app.id)
      return { error: oauthError.invalidGrant('The authorization code was issued to another client') };
    if (grant.expiresAt.getTime() <= now.getTime())
      return { error: oauthError.invalidGrant('The authorization code has expired') };
    if (redirectUri === undefined)
      return { error: oauthError.invalidRequest('Parameter redirect_uri is required') };
    if (redirectUri !== grant.redirectUri) {
      return {
        error: oauthError.invalidGrant('redirect_uri does not match the one of the authorization request'),
      };
    }
    if (grant.codeChallenge === null) {
      // A code issued before the app began to require PKCE.
      if (pkceRequired(app)) {
        return {
          error: oauthError.invalidGrant(
            `${app.name} requires PKCE, and this code was issued without a code_challenge; start the authorization again with one`,
          ),
        };
      }
      if (verifier !== undefined) {
        return {
          error: oauthError.invalidGrant(
            'code_verifier was sent but the authorization request had no code_challenge',
          ),
        };
      }
    } else {
      if (verifier === undefined)
        return { error: oauthError.invalidGrant('code_verifier is required for this code') };
      if (!VERIFIER.test(verifier) || s256(verifier) !== grant.codeChallenge) {
        return { error: oauthError.invalidGrant('code_verifier does not match the code_challenge') };
      }
    }
    await markAuthorizationCodeConsumed(tx, grant.id, now);
    const token = options.accessToken ?? generateToken('accessToken');
    await insertAccessToken(
      tx,
      {
        id: newId(),
        kind: 'oauth_user',
        userId: grant.userId,
        organizationId: app.organizationId,
        appId: app.id,
        createdAt: now,
        authorizationCodeId: grant.id,
        placemaker: grant.placemaker,
      },
      hashToken(token),
    );
    return { token, placemaker: grant.placemaker };
  });
  if (outcome.revoked) deps.resolver.forget(outcome.revoked);
  if (outcome.error) throw outcome.error;
  return { access_token: outcome.token!, token_type: 'Bearer', scope: scopeOf(outcome.placemaker!) };
}
