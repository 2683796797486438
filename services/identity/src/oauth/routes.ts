import { type CairnError, toCairnError } from '@cairn/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IdentityDeps } from '../deps.ts';
import { getOrganization } from '../organizations/service.ts';
import { consentPage, errorPage } from '../web/pages.ts';
import { checkCsrf, csrfToken, field, pageHeaders } from '../web/security.ts';
import { currentPerson } from '../web/session.ts';
import {
  type AuthorizationRequest,
  authorizationSteps,
  validateAuthorizationRequest,
} from './authorize/index.ts';
import { authenticateClientRequest } from './client-auth.ts';
import { authorizationResponse, issueAuthorizationCode } from './codes.ts';
import { alreadyConsented } from './consent.ts';
import { isPageError, oauthError } from './errors.ts';
import { collectParams, type Params } from './params.ts';
import {
  CLIENT_AUTHENTICATED,
  IntrospectionSchema,
  MetadataSchema,
  OAUTH_ERRORS,
  OAuthErrorSchema,
  RevocationSchema,
  TokenResponseSchema,
  UserInfoSchema,
} from './schemas.ts';
import { SCOPES_SUPPORTED } from './scopes.ts';
import { exchangeAuthorizationCode } from './token/authorization-code.ts';
import { introspectForClient, revokeForClient } from './token-management.ts';
import { userInfo } from './userinfo.ts';

const OAUTH_CODES = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'unsupported_response_type',
  'access_denied',
  'invalid_token',
]);

/**
 * RFC 6749 §5.2 JSON errors; anything not an OAuth error (a bad body, say) is an invalid_request. The
 * authorization endpoint is a page a person sees: what fails before its steps run (a parameter that can't
 * be decoded) is shown as a page, never redirected (§4.1.2.1).
 */
function renderOAuthError(raw: Error, request: FastifyRequest, reply: FastifyReply) {
  const error = toCairnError(raw);
  if (error.status >= 500) request.log.error({ err: raw }, 'oauth request failed');
  if (request.routeOptions.url === '/oauth2/authenticate') {
    pageHeaders(reply);
    const message = error.expose ? error.message : 'Please try again later.';
    return reply.status(error.status).send(errorPage('This sign-in link does not work', message));
  }
  for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
  const code = OAUTH_CODES.has(error.code)
    ? error.code
    : error.status >= 500
      ? 'server_error'
      : 'invalid_request';
  return reply
    .status(error.status)
    .header('cache-control', 'no-store')
    .send({ error: code, error_description: error.expose ? error.message : 'Internal server error' });
}

export function oauthRoutes(deps: IdentityDeps, issuer: string) {
  const steps = authorizationSteps(deps);

  /** Shows the error as a page, or sends it to the app's redirect URI once that is known to be registered. */
  function authorizationFailure(
    reply: FastifyReply,
    error: CairnError,
    partial: Partial<AuthorizationRequest>,
  ) {
    if (isPageError(error) || !partial.redirectUri) {
      pageHeaders(reply);
      return reply.status(400).send(errorPage('This sign-in link does not work', error.message));
    }
    return reply.redirect(
      authorizationResponse(partial.redirectUri, issuer, {
        error: error.code,
        error_description: error.message,
        state: partial.state,
      }),
      303,
    );
  }

  async function authorize(request: FastifyRequest, reply: FastifyReply, params: Params, decision?: string) {
    const partial: Partial<AuthorizationRequest> = {};
    let authz: AuthorizationRequest;
    try {
      authz = await validateAuthorizationRequest(steps, params, partial);
    } catch (error) {
      return authorizationFailure(reply, toCairnError(error), partial);
    }
    const person = await currentPerson(deps, request);
    if (!person) {
      const query = new URLSearchParams(authz.params).toString();
      return reply.redirect(
        `/account/signin?return_to=${encodeURIComponent(`/oauth2/authenticate?${query}`)}`,
        303,
      );
    }
    if (decision === 'deny') {
      return reply.redirect(
        authorizationResponse(authz.redirectUri, issuer, {
          error: 'access_denied',
          error_description: `${person.displayName} did not allow ${authz.app.name} to connect`,
          state: authz.state,
        }),
        303,
      );
    }
    if (decision === 'allow' || (await alreadyConsented(deps, person.userId, authz))) {
      const code = await issueAuthorizationCode(deps, authz, person.userId, {
        recordConsent: decision === 'allow',
      });
      return reply.redirect(
        authorizationResponse(authz.redirectUri, issuer, { code, state: authz.state }),
        303,
      );
    }
    const organization = await getOrganization(deps.db, authz.app.organizationId);
    pageHeaders(reply, { frameAncestors: authz.app.embedOrigins });
    return reply.send(
      consentPage({
        csrf: csrfToken(request, reply, issuer),
        app: authz.app,
        organization: organization.name,
        placemaker: authz.placemaker,
        params: authz.params,
        person,
      }),
    );
  }

  return async function oauth(app: FastifyInstance) {
    app.setErrorHandler(renderOAuthError);
    const hide = { hide: true };

    app.get('/oauth2/authenticate', { schema: hide }, (request, reply) =>
      authorize(request, reply, collectParams(request.query)),
    );
    app.post('/oauth2/authenticate', { schema: hide }, async (request, reply) => {
      try {
        checkCsrf(request, field(request.body, 'csrf_token'), issuer);
      } catch (error) {
        pageHeaders(reply);
        return reply.status(403).send(errorPage('Please try again', toCairnError(error).message));
      }
      const decision = field(request.body, 'decision');
      if (decision !== 'allow' && decision !== 'deny') {
        pageHeaders(reply);
        return reply.status(400).send(errorPage('Please try again', 'Choose Allow or Deny.'));
      }
      const body = { ...(request.body as Record<string, unknown>) };
      delete body.csrf_token;
      delete body.decision;
      return authorize(request, reply, collectParams(body), decision);
    });

    const tokenSchema = {
      tags: ['identity'],
      summary: 'Exchange an authorization code for an access token (query string or form body, GET or POST)',
      security: CLIENT_AUTHENTICATED,
      response: { 200: TokenResponseSchema, ...OAUTH_ERRORS },
    };
    const token = async (request: FastifyRequest, reply: FastifyReply) => {
      const params = collectParams(request.query, request.body);
      void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      const client = await authenticateClientRequest(deps, request, params);
      const grantType = params.values.grant_type;
      if (!grantType)
        throw oauthError.invalidRequest(
          'Parameter grant_type is required; use grant_type=authorization_code',
        );
      if (grantType !== 'authorization_code') {
        throw oauthError.unsupportedGrantType(
          `grant_type "${grantType.slice(0, 40)}" is not supported; use authorization_code`,
        );
      }
      return exchangeAuthorizationCode(deps, client, params);
    };
    app.get(
      '/oauth2/access_token',
      { schema: { ...tokenSchema, operationId: 'oauth2AccessTokenGet' } },
      token,
    );
    app.post('/oauth2/access_token', { schema: { ...tokenSchema, operationId: 'oauth2AccessToken' } }, token);

    app.post(
      '/oauth2/revoke',
      {
        schema: {
          tags: ['identity'],
          summary: 'RFC 7009 token revocation',
          security: CLIENT_AUTHENTICATED,
          response: { 200: RevocationSchema, ...OAUTH_ERRORS },
        },
      },
      async (request, reply) => {
        const params = collectParams(request.body);
        const client = await authenticateClientRequest(deps, request, params);
        const value = params.values.token;
        if (!value) throw oauthError.invalidRequest('Parameter token is required');
        await revokeForClient(deps, client, value);
        return reply.header('cache-control', 'no-store').send({});
      },
    );

    app.post(
      '/oauth2/introspect',
      {
        schema: {
          tags: ['identity'],
          summary: 'RFC 7662 token introspection',
          security: CLIENT_AUTHENTICATED,
          response: { 200: IntrospectionSchema, ...OAUTH_ERRORS },
        },
      },
      async (request, reply) => {
        const params = collectParams(request.body);
        const client = await authenticateClientRequest(deps, request, params);
        const value = params.values.token;
        if (!value) throw oauthError.invalidRequest('Parameter token is required');
        return reply
          .header('cache-control', 'no-store')
          .send(await introspectForClient(deps, client, value, issuer));
      },
    );

    const userinfoSchema = {
      tags: ['identity'],
      summary:
        "OpenID Connect userinfo: who the person behind a third-party access token is (Bearer: the user's access token)",
      security: [{ bearer: [] }],
      response: { 200: UserInfoSchema, 401: OAuthErrorSchema },
    };
    const userinfo = async (request: FastifyRequest, reply: FastifyReply) =>
      reply.header('cache-control', 'no-store').send(await userInfo(deps, request.headers.authorization));
    app.get(
      '/oauth2/userinfo',
      { schema: { ...userinfoSchema, operationId: 'oauth2UserinfoGet' } },
      userinfo,
    );
    app.post('/oauth2/userinfo', { schema: { ...userinfoSchema, operationId: 'oauth2Userinfo' } }, userinfo);

    app.get(
      '/.well-known/oauth-authorization-server',
      {
        schema: {
          tags: ['identity'],
          summary: 'RFC 8414 metadata',
          security: [],
          // A query string that can't be decoded or stored is refused before any route runs (kit request-text).
          response: { 200: MetadataSchema, 400: OAuthErrorSchema },
        },
      },
      async () => ({
        issuer,
        authorization_endpoint: `${issuer}/oauth2/authenticate`,
        token_endpoint: `${issuer}/oauth2/access_token`,
        revocation_endpoint: `${issuer}/oauth2/revoke`,
        introspection_endpoint: `${issuer}/oauth2/introspect`,
        userinfo_endpoint: `${issuer}/oauth2/userinfo`,
        scopes_supported: SCOPES_SUPPORTED,
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        authorization_response_iss_parameter_supported: true,
        service_documentation: `${issuer}/openapi/identity.json`,
      }),
    );
  };
}
