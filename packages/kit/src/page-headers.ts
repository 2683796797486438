import type { FastifyReply } from 'fastify';

/**
 * Headers for every HTML page: no MIME sniffing, no caching (pages carry CSRF tokens and personal data),
 * no referrer to other sites (`same-origin`: with `no-referrer` a browser sends `Origin: null` on our own
 * form posts, which CSRF checks must refuse), a strict Content-Security-Policy, and framing only by the given origins (RFC 9700 §4.16:
 * prevent clickjacking; `'none'` plus X-Frame-Options: DENY when no origin may frame the page).
 * `scripts: true` is for the single-page apps, whose scripts and API calls come from this origin.
 */
export function pageHeaders(
  reply: FastifyReply,
  options: { frameAncestors?: readonly string[]; scripts?: boolean; connect?: readonly string[] } = {},
) {
  const origins = options.frameAncestors ?? [];
  const ancestors = origins.length > 0 ? origins.join(' ') : "'none'";
  const connect = ["'self'", ...(options.connect ?? [])].join(' ');
  const policy = options.scripts
    ? `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src ${connect}; form-action 'self'; base-uri 'none'; frame-ancestors ${ancestors}`
    : `default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self' http: https:; base-uri 'none'; frame-ancestors ${ancestors}`;
  void reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'same-origin')
    .header('content-security-policy', policy);
  if (origins.length === 0) void reply.header('x-frame-options', 'DENY');
}
