import type { FastifyReply, FastifyRequest } from 'fastify';

export const DASHBOARD_COOKIE = 'cairn_dashboard';
/** The session's CSRF value, sent back by the dashboard app on every API call. */
export const DASHBOARD_CSRF_HEADER = 'x-cairn-dashboard';

/**
 * HttpOnly, SameSite=Strict, for every path (the app calls /client/v4); Secure when served over https.
 * A browser-session cookie: it goes when the browser closes, and the server ends it after SESSION_HOURS.
 */
export function setDashboardCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  publicUrl: string,
  value: string,
) {
  void reply.setCookie(DASHBOARD_COOKIE, value, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https' || publicUrl.startsWith('https:'),
  });
}

export function clearDashboardCookie(reply: FastifyReply) {
  void reply.clearCookie(DASHBOARD_COOKIE, { path: '/' });
}
