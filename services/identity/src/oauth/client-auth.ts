import type { FastifyRequest } from 'fastify';
import { type App, authenticateClient } from '../apps/service.ts';
import type { IdentityDeps } from '../deps.ts';
import { oauthError } from './errors.ts';
import type { Params } from './params.ts';

function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}

/**
 * Client authentication, RFC 6749 §2.3.1: HTTP Basic (client_secret_basic) or client_id and client_secret
 * parameters (client_secret_post, and the seed's query string). Using both is an error; failures are 401.
 */
export async function authenticateClientRequest(
  deps: Pick<IdentityDeps, 'db'>,
  request: FastifyRequest,
  params: Params,
): Promise<App> {
  const header = request.headers.authorization;
  const basic = header && /^Basic\s+/i.test(header);
  let clientId: string | undefined;
  let secret: string | undefined;
  if (basic) {
    if (params.values.client_secret !== undefined) {
      throw oauthError.invalidRequest(
        'Use one client authentication method: HTTP Basic or client_secret, not both',
      );
    }
    let decoded: string;
    try {
      decoded = Buffer.from(header.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) throw new Error('no colon');
      clientId = formDecode(decoded.slice(0, colon));
      secret = formDecode(decoded.slice(colon + 1));
    } catch {
      throw basicFailure('The Basic Authorization header is malformed');
    }
    if (params.values.client_id !== undefined && params.values.client_id !== clientId) {
      throw oauthError.invalidRequest('client_id differs from the client in the Authorization header');
    }
  } else {
    clientId = params.values.client_id;
    secret = params.values.client_secret;
    if (params.repeated.has('client_id') || params.repeated.has('client_secret')) {
      throw oauthError.invalidRequest('client_id and client_secret must each be given once');
    }
  }
  if (!clientId)
    throw oauthError.invalidClient('Client authentication is required: send client_id and client_secret');
  if (!secret) throw oauthError.invalidClient('client_secret is required');
  const app = await authenticateClient(deps, clientId, secret);
  if (!app)
    throw basic
      ? basicFailure('Client authentication failed')
      : oauthError.invalidClient('Client authentication failed');
  return app;
}

function basicFailure(message: string) {
  return oauthError
    .invalidClient(message)
    .with({ headers: { 'www-authenticate': 'Basic realm="cairn", charset="UTF-8"' } });
}
