import { hashToken } from '@cairn/kit';
import type { App } from '../apps/service.ts';
import { announceRevoked } from '../auth/revocations.ts';
import type { IdentityDeps } from '../deps.ts';
import { findAccessTokenByHash, revokeAppToken } from '../store/access-tokens.ts';
import { scopeOf } from './scopes.ts';

/** RFC 7009: revokes the token if this client holds it; unknown tokens are no error. */
export async function revokeForClient(deps: IdentityDeps, app: App, token: string): Promise<void> {
  const hash = hashToken(token);
  const revoked = await deps.db.transaction(async (tx) => {
    const done = await revokeAppToken(tx, hash, app.id, deps.clock.now());
    if (done) await announceRevoked(tx, [done]);
    return done;
  });
  if (revoked) deps.resolver.forget([revoked]);
}

/** RFC 7662: what a client may learn about one of its own tokens; anything else is `{active: false}`. */
export async function introspectForClient(
  deps: IdentityDeps,
  app: App,
  token: string,
  issuer: string,
): Promise<Record<string, unknown>> {
  const record = await findAccessTokenByHash(deps.db, hashToken(token));
  if (!record || record.revokedAt || record.appId !== app.id || record.kind !== 'oauth_user')
    return { active: false };
  return {
    active: true,
    client_id: app.clientId,
    token_type: 'Bearer',
    scope: scopeOf(record.placemaker),
    sub: String(record.userId),
    iat: Math.floor(record.createdAt.getTime() / 1000),
    iss: issuer,
  };
}
