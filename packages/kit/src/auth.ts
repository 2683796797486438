import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
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

/**
 * Turns a bearer credential into an auth context, or rejects with a 401 CairnError. A credential it already
 * knows is answered synchronously: most requests carry one, and a promise per request was a third of what the
 * check cost (bench/users-api.ts, instructions per request). It never throws synchronously.
 */
export type ResolveBearer = (token: string) => AuthContext | Promise<AuthContext>;

/**
 * The same from a request's Authorization header as sent (`undefined` when there is none): a known header is
 * answered without parsing it. A malformed one throws the 401 of bearerTokenOf.
 */
export type ResolveAuthorization = (header: string | undefined) => AuthContext | Promise<AuthContext>;

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
  return bearerTokenOf(request.headers.authorization);
}

/** The credential of an Authorization header's value: bearerToken for a header already read. */
export function bearerTokenOf(header: string | undefined): string {
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

/** The onRequest hook of a bearer-protected API: sets `request.auth`, or fails the request with the 401. */
export function authenticate(resolveAuthorization: ResolveAuthorization): AuthenticateHook {
  // Callback style rather than async, so that a known credential passes without a promise.
  return function authenticate(request, _reply, done) {
    let answer: AuthContext | Promise<AuthContext>;
    try {
      answer = resolveAuthorization(request.headers.authorization);
    } catch (error) {
      return done(error as Error);
    }
    if (answer instanceof Promise) {
      answer.then((auth) => {
        request.auth = auth;
        done();
      }, done);
      return;
    }
    request.auth = answer;
    done();
  };
}

export type AuthenticateHook = (
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
) => void;

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | undefined;
  }
}
