import { randomBytes } from 'node:crypto';
import { signUp } from './accounts/service.ts';
import { findLiveApp, registerApp } from './apps/service.ts';
import type { IdentityDeps } from './deps.ts';
import { authorizationSteps, validateAuthorizationRequest } from './oauth/authorize/index.ts';
import { issueAuthorizationCode } from './oauth/codes.ts';
import { collectParams } from './oauth/params.ts';
import { exchangeAuthorizationCode } from './oauth/token/authorization-code.ts';

/**
 * Test support for other services: a person with an account connected to a third-party app, through the
 * real authorization-code path (request validation, code, exchange) minus the browser and HTTP.
 */
export async function connectThirdPartyUser(
  deps: IdentityDeps,
  input: {
    organizationId: string;
    appId?: string;
    clientId?: string;
    clientSecret?: string;
    placemaker?: boolean;
    displayName?: string;
  },
): Promise<{ accessToken: string; userId: number; appId: string; clientId: string }> {
  const redirectUri = 'https://app.example.com/callback';
  let clientId = input.clientId;
  if (!clientId) {
    const registered = await registerApp(deps, {
      organizationId: input.organizationId,
      name: `Test app ${randomBytes(3).toString('hex')}`,
      redirectUris: [redirectUri],
    });
    clientId = registered.app.clientId;
  }
  const person = await signUp(deps, {
    email: `person-${randomBytes(5).toString('hex')}@example.com`,
    displayName: input.displayName ?? 'Test Person',
    password: 'a password for tests',
  });
  const params = collectParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: input.clientId ? ((await findLiveApp(deps, clientId))?.redirectUris[0] ?? '') : redirectUri,
    ...(input.placemaker ? { mode: 'placemaker' } : {}),
  });
  const request = await validateAuthorizationRequest(authorizationSteps(deps), params);
  const code = await issueAuthorizationCode(deps, request, person.userId, { recordConsent: true });
  const { access_token } = await exchangeAuthorizationCode(
    deps,
    request.app,
    collectParams({ code, redirect_uri: request.redirectUri }),
  );
  return { accessToken: access_token, userId: person.userId, appId: request.app.id, clientId };
}
