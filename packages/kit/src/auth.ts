import type { FastifyRequest } from 'fastify';
import { unauthorized } from './errors.ts';

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

/** The credential of `Authorization: Bearer <token>`, or a 401 saying what is wrong with the header. */
export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (header === undefined || header === '') {
    throw unauthorized('Missing Authorization header; send Authorization: Bearer <credential>');
  }
  if (/^Bearer\s*$/i.test(header)) {
    throw unauthorized(
      'The Authorization header has no credential after "Bearer"; send Authorization: Bearer <credential>',
    );
  }
  const match = /^Bearer +([\x21-\x7e]+)\s*$/i.exec(header);
  if (!match) {
    throw unauthorized('Malformed Authorization header; expected "Bearer <credential>"');
  }
  return match[1]!;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | undefined;
  }
}
