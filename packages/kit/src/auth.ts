import type { FastifyRequest } from 'fastify';
import { CairnError } from './errors.ts';

/** Who is calling: the attribution every call and edit carries. */
export type CredentialKind = 'service_key' | 'managed_user' | 'oauth_user';

export interface AuthContext {
  kind: CredentialKind;
  organizationId: string;
  appId?: string;
  userId?: number;
  /** Id of the credential row (service key or access token), for usage counting and revocation. */
  credentialId: string;
}

/** Turns a bearer credential into an auth context, or throws a 401 CairnError. */
export type ResolveBearer = (token: string) => Promise<AuthContext>;

/**
 * A 401 of a bearer-protected API with its RFC 6750 §3 challenge: no error code when no credential was
 * sent, `invalid_request` for a malformed header, `invalid_token` for an unknown, revoked or expired one.
 */
export function bearerUnauthorized(message: string, error?: 'invalid_request' | 'invalid_token'): CairnError {
  const challenge = error ? `Bearer realm="cairn", error="${error}"` : 'Bearer realm="cairn"';
  return new CairnError(401, 'unauthorized', message, { headers: { 'www-authenticate': challenge } });
}

const BEARER = /^Bearer +([\x21-\x7e]+)\s*$/i;

/** The credential of `Authorization: Bearer <token>`, or a 401 saying what is wrong with the header. */
export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  const match = header === undefined ? null : BEARER.exec(header);
  if (match) return match[1]!;
  // Not well formed: say why (only here, off the path of every authenticated call).
  if (header === undefined || header === '') {
    throw bearerUnauthorized('Missing Authorization header; send Authorization: Bearer <credential>');
  }
  if (/^Bearer\s*$/i.test(header)) {
    throw bearerUnauthorized(
      'The Authorization header has no credential after "Bearer"; send Authorization: Bearer <credential>',
      'invalid_request',
    );
  }
  throw bearerUnauthorized(
    'Malformed Authorization header; expected "Bearer <credential>"',
    'invalid_request',
  );
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | undefined;
  }
}
