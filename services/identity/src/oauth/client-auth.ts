import { decodeUrlEncodedComponent, decodeUtf8, textProblem } from '@cairn/kit';
import type { FastifyRequest } from 'fastify';
import { type App, authenticateClient } from '../apps/service.ts';
import type { IdentityDeps } from '../deps.ts';
import { oauthError } from './errors.ts';
import type { Params } from './params.ts';

/** The Basic credentials, RFC 6749 §2.3.1: base64 of form-encoded `client_id:client_secret`, as UTF-8. */
function decodeBasic(header: string): { clientId: string; secret: string } {
  const decoded = decodeUtf8(Buffer.from(header.replace(/^Basic\s+/i, ''), 'base64'));
  if ('problem' in decoded) throw invalidBasic(`decodes to text that ${decoded.problem}`);
  const colon = decoded.text.indexOf(':');
  if (colon < 0) throw basicFailure('The Basic Authorization header is malformed');
  const parts = { client_id: decoded.text.slice(0, colon), client_secret: decoded.text.slice(colon + 1) };
  const text: Record<string, string> = {};
  for (const [name, raw] of Object.entries(parts)) {
    const part = decodeUrlEncodedComponent(raw);
    const problem = 'problem' in part ? part.problem : textProblem(part.text);
    if (problem) throw invalidBasic(`has a ${name} that ${problem}`);
    text[name] = (part as { text: string }).text;
  }
  const clientId = text.client_id!;
  const secret = text.client_secret!;
  return { clientId, secret };
}

/** Credentials that can't be text: a 400 about the header (never looked up, never a 500). */
function invalidBasic(what: string) {
  return oauthError
    .invalidRequest(`The Basic Authorization header ${what}`)
    .with({ location: { parameter: 'authorization' } });
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
    ({ clientId, secret } = decodeBasic(header));
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
