import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  closeBrowserSession,
  openBrowserSession,
  type Person,
  personOfSession,
} from '../accounts/service.ts';
import type { IdentityDeps } from '../deps.ts';
import { SESSION_COOKIE, secureCookies } from './security.ts';

export type SignedIn = Person & { session: { id: string; appId: string | null } };

/** The person signed in through the session cookie, if any. */
export function currentPerson(deps: IdentityDeps, request: FastifyRequest): Promise<SignedIn | undefined> {
  return personOfSession(deps, request.cookies[SESSION_COOKIE]);
}

export async function startSession(
  deps: IdentityDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  publicUrl: string,
  userId: number,
): Promise<void> {
  const { cookie, session } = await openBrowserSession(deps, userId);
  void reply.setCookie(SESSION_COOKIE, cookie, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies(request, publicUrl),
    expires: session.expiresAt,
  });
}

export async function endSession(
  deps: IdentityDeps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const cookie = request.cookies[SESSION_COOKIE];
  if (cookie) await closeBrowserSession(deps, cookie);
  void reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
