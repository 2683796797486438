import { bearerTokenOf, CairnError, hashToken, toCairnError, tokenKindOf } from '@cairn/kit';
import type { IdentityDeps } from '../deps.ts';
import { findAccessTokenByHash } from '../store/access-tokens.ts';
import { findAccountByUserId } from '../store/accounts.ts';
import { findUserById } from '../store/users.ts';

/** The OpenID Connect Core §5.3 userinfo answer: `sub`, then the profile the users API keeps. */
export interface UserInfo {
  sub: string;
  user_id: number;
  name?: string;
  first_name?: string;
  last_name?: string;
}

/**
 * RFC 6750 §3: a 401 with a Bearer challenge; `invalid_token` for a credential that is not a live third-party
 * access token, no error code when the request carried none (§3.1).
 */
function bearerError(description: string, error?: 'invalid_request' | 'invalid_token'): CairnError {
  // RFC 6750 §3: error_description is printable ASCII without " and \.
  const quoted = description.replace(/[^\x20-\x7e]|["\\]/g, "'");
  const challenge = error
    ? `Bearer realm="cairn", error="${error}", error_description="${quoted}"`
    : 'Bearer realm="cairn"';
  return new CairnError(401, error ?? 'invalid_request', description, {
    headers: { 'www-authenticate': challenge },
  });
}

/**
 * GET or POST /oauth2/userinfo with `Authorization: Bearer <at_…>`: who the person behind a third-party
 * access token is. Service keys and managed users' tokens are refused: their caller already knows whom
 * they stand for. Read from the database, not the resolver's cache, so a revoked token fails at once.
 */
export async function userInfo(
  deps: Pick<IdentityDeps, 'db'>,
  header: string | undefined,
): Promise<UserInfo> {
  let token: string;
  try {
    token = bearerTokenOf(header);
  } catch (error) {
    const challenge = toCairnError(error).headers['www-authenticate'] ?? '';
    const message = toCairnError(error).message;
    throw bearerError(message, challenge.includes('invalid_request') ? 'invalid_request' : undefined);
  }
  if (tokenKindOf(token) !== 'accessToken') {
    throw bearerError(
      "The userinfo endpoint takes a third-party user's access token (at_ and 43 characters, from the code exchange); this is not one",
      'invalid_token',
    );
  }
  const record = await findAccessTokenByHash(deps.db, hashToken(token));
  if (record?.kind !== 'oauth_user') throw bearerError('The access token is not valid', 'invalid_token');
  if (record.revokedAt) throw bearerError('The access token has been revoked', 'invalid_token');
  const user = await findUserById(deps.db, record.userId);
  const account = await findAccountByUserId(deps.db, record.userId);
  if (!user || user.deletedAt) throw bearerError('The access token is not valid', 'invalid_token');
  return {
    sub: String(user.id),
    user_id: user.id,
    ...(account ? { name: account.displayName } : {}),
    ...(user.firstName ? { first_name: user.firstName } : {}),
    ...(user.lastName ? { last_name: user.lastName } : {}),
  };
}
