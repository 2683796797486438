import { type AuthContext, CairnError, forbidden, generateToken, hashToken, newId } from '@cairn/kit';
import type { IdentityDeps } from '../deps.ts';
import { findAccessTokenById } from '../store/access-tokens.ts';
import { insertSessionToken, redeemSessionTokenRow } from '../store/session-tokens.ts';

/** The seed's limit: a session token is valid for 10 minutes. */
export const SESSION_TOKEN_TTL_MS = 10 * 60_000;

/** Why a third-party token without the placemaker permission can't open the editor, and how to ask for it. */
export const PLACEMAKER_CONSENT_MISSING =
  "This access token was issued without the placemaker permission (the person's consent to open the place editor and suggest and vote on edits as them), so it cannot open the editor. Ask for it: send the person to /oauth2/authenticate with mode=placemaker added to the authorization request, exchange the new code, and use that access token";

/**
 * POST /auth/session-token: only a third-party user's access token may ask (the embedded editing UI
 * requires the third-party flow), and only one issued under a consent that includes the placemaker
 * permission; the session token is bound to that user, app and access token.
 */
export async function createSessionToken(
  deps: Pick<IdentityDeps, 'db' | 'clock'>,
  auth: AuthContext,
): Promise<{ session_token: string }> {
  if (auth.kind !== 'oauth_user' || auth.userId === undefined || auth.appId === undefined) {
    const what = auth.kind === 'service_key' ? 'a service key' : "a managed user's access token";
    throw forbidden(
      `Session tokens open the embedded place-editing UI, which requires the third-party flow: authenticate with the user's access token from the OAuth code exchange, not ${what}`,
    );
  }
  const accessToken = await findAccessTokenById(deps.db, auth.credentialId);
  if (!accessToken?.placemaker) throw forbidden(PLACEMAKER_CONSENT_MISSING);
  const token = generateToken('sessionToken');
  const now = deps.clock.now();
  await insertSessionToken(
    deps.db,
    {
      id: newId(),
      accessTokenId: auth.credentialId,
      userId: auth.userId,
      appId: auth.appId,
      organizationId: auth.organizationId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + SESSION_TOKEN_TTL_MS),
    },
    hashToken(token),
  );
  return { session_token: token };
}

export interface RedeemedSession {
  accessTokenId: string;
  userId: number;
  appId: string;
  organizationId: string;
}

const REFUSALS = {
  unknown: 'This session token is not valid. Ask the app that sent you here to open the editor again.',
  expired:
    'This session token has expired (they are valid for 10 minutes). Ask the app that sent you here for a new one.',
  used: 'This session token has already been used; each one opens the editor once. Ask the app for a new one.',
  revoked:
    'The connection between your account and this app has been removed, so this session token no longer works.',
} as const;

/** Redeems a session token once (the placemakers UI calls this); a refusal says why. */
export async function redeemSessionToken(
  deps: Pick<IdentityDeps, 'db' | 'clock'>,
  token: string,
): Promise<RedeemedSession> {
  if (!/^st_[A-Za-z0-9_-]{43}$/.test(token))
    throw new CairnError(401, 'session_token_unknown', REFUSALS.unknown);
  const outcome = await deps.db.transaction((tx) =>
    redeemSessionTokenRow(tx, hashToken(token), deps.clock.now()),
  );
  if (outcome.status !== 'redeemed') {
    throw new CairnError(
      outcome.status === 'unknown' ? 401 : 410,
      `session_token_${outcome.status}`,
      REFUSALS[outcome.status],
    );
  }
  return {
    accessTokenId: outcome.token.accessTokenId,
    userId: outcome.token.userId,
    appId: outcome.token.appId,
    organizationId: outcome.token.organizationId,
  };
}
