import { randomBytes, timingSafeEqual } from 'node:crypto';
import { CairnError } from '@cairn/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';

export { pageHeaders } from '@cairn/kit';

export const SESSION_COOKIE = 'cairn_session';
export const CSRF_COOKIE = 'cairn_csrf';

/** Cookies are Secure whenever Cairn is reached over https (directly or as its public address says). */
export function secureCookies(request: FastifyRequest, publicUrl: string): boolean {
  return request.protocol === 'https' || publicUrl.startsWith('https:');
}

/**
 * Double-submit CSRF protection: a random value in an HttpOnly SameSite=Lax cookie must come back in the
 * form's `csrf_token` field; and a cross-site or opaque (`null`) Origin is refused outright.
 */
export function csrfToken(request: FastifyRequest, reply: FastifyReply, publicUrl: string): string {
  const existing = request.cookies[CSRF_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  void reply.setCookie(CSRF_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies(request, publicUrl),
  });
  request.cookies[CSRF_COOKIE] = token;
  return token;
}

export function checkCsrf(request: FastifyRequest, formToken: unknown, publicUrl: string): void {
  const origin = request.headers.origin;
  // `Origin: null` comes from sandboxed frames, data: URLs and cross-site redirects: never from our pages.
  if (origin === 'null') {
    throw csrfError(
      'This form was sent from a page without an origin (Origin: null); open the page on this site and try again.',
    );
  }
  if (origin && origin !== new URL(publicUrl).origin && origin !== requestOrigin(request)) {
    throw csrfError(`This form was sent from another site (${origin}); reload the page and try again.`);
  }
  const cookie = request.cookies[CSRF_COOKIE];
  if (typeof formToken !== 'string' || !cookie)
    throw csrfError('This form has expired; reload the page and try again.');
  const a = Buffer.from(formToken);
  const b = Buffer.from(cookie);
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    throw csrfError('This form has expired; reload the page and try again.');
  }
}

function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

function csrfError(message: string) {
  return new CairnError(403, 'csrf', message);
}

/** A form or query value given once, as text. */
export function field(source: unknown, name: string): string | undefined {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}
