import type { IdentityDeps } from '../deps.ts';
import { findConsent } from '../store/consents.ts';
import type { AuthorizationRequest } from './authorize/index.ts';

/**
 * Whether the person already allowed what this request asks: a first-party app needs no consent; otherwise
 * a recorded consent covers it, and one without the placemaker permission does not cover `mode=placemaker`.
 */
export async function alreadyConsented(
  deps: Pick<IdentityDeps, 'db'>,
  userId: number,
  request: AuthorizationRequest,
): Promise<boolean> {
  if (request.app.firstParty) return true;
  const consent = await findConsent(deps.db, userId, request.app.id);
  return consent !== undefined && (consent.placemaker || !request.placemaker);
}
