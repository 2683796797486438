import type { FastifyReply, FastifyRequest } from 'fastify';

export const EDITOR_COOKIE = 'cairn_editor';

/**
 * The editor runs inside the integrating app's frame, a third-party context: over https its cookie is
 * SameSite=None; Secure; Partitioned (CHIPS), so it works in an iframe. Over plain http (local sandboxes)
 * browsers refuse SameSite=None without Secure, so it is Lax: the editor then works top-level only.
 */
export function setEditorCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  publicUrl: string,
  value: string,
  expires: Date,
) {
  const https = request.protocol === 'https' || publicUrl.startsWith('https:');
  void reply.setCookie(EDITOR_COOKIE, value, {
    path: '/placemakers',
    httpOnly: true,
    expires,
    ...(https ? { sameSite: 'none', secure: true, partitioned: true } : { sameSite: 'lax' }),
  });
}
