import { generateToken, hashToken, newId } from '@cairn/kit';
import type { IdentityDeps } from '../deps.ts';
import { insertAuthorizationCode } from '../store/authorization-codes.ts';
import { upsertConsent } from '../store/consents.ts';
import type { AuthorizationRequest } from './authorize/index.ts';

/** RFC 9700 §4.2.3 / RFC 6749 §4.1.2: short-lived, single use. */
export const CODE_TTL_MS = 10 * 60_000;

export async function issueAuthorizationCode(
  deps: Pick<IdentityDeps, 'db' | 'clock'>,
  request: AuthorizationRequest,
  userId: number,
  options: { recordConsent: boolean },
): Promise<string> {
  const code = generateToken('authorizationCode');
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    if (options.recordConsent) await upsertConsent(tx, userId, request.app.id, request.placemaker, now);
    await insertAuthorizationCode(
      tx,
      {
        id: newId(),
        appId: request.app.id,
        userId,
        redirectUri: request.redirectUri,
        codeChallenge: request.codeChallenge ?? null,
        placemaker: request.placemaker,
        createdAt: now,
        expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      },
      hashToken(code),
    );
  });
  return code;
}

/** The redirect back to the app: its registered URI plus our parameters, with RFC 9207 `iss`. */
export function authorizationResponse(
  redirectUri: string,
  issuer: string,
  params: Record<string, string | undefined>,
): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.append(name, value);
  url.searchParams.append('iss', issuer);
  return url.toString();
}
