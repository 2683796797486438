import { createHash, randomBytes } from 'node:crypto';
import { CairnError } from '@cairn/kit';
import { signIn, signUp } from '../accounts/service.ts';
import { authenticateClient, findLiveApp } from '../apps/service.ts';
import type { IdentityDeps } from '../deps.ts';
import { createSessionToken } from '../session-tokens/service.ts';
import { authorizationSteps, validateAuthorizationRequest } from './authorize/index.ts';
import { issueAuthorizationCode } from './codes.ts';
import { alreadyConsented } from './consent.ts';
import { collectParams } from './params.ts';
import { exchangeAuthorizationCode, type TokenResponse } from './token/authorization-code.ts';

export interface InProcessGrantInput {
  /** The app as its developer knows it; the secret authenticates it at the token step. */
  app: { clientId: string; clientSecret: string; redirectUri?: string };
  /** The person who signs in (their password is checked); none: a new person signs up. */
  person?: { email: string; password: string };
  /** Ask for the placemaker permission (`mode=placemaker`). */
  placemaker?: boolean;
  /** The access token's value, when the caller chose it (fixtures that name their tokens). */
  accessToken?: string;
}

export interface InProcessGrant extends TokenResponse {
  user_id: number;
  email: string;
}

/** Where the sign-in throttle counts these sign-ins from. */
const IN_PROCESS_ADDRESS = 'in-process';

function refused(step: string, error: unknown): CairnError {
  const cause = error instanceof CairnError ? error : undefined;
  return new CairnError(
    cause && cause.status < 500 ? cause.status : 400,
    cause?.code ?? 'invalid_request',
    `${step}: ${error instanceof Error ? error.message : String(error)}`,
    cause ? { details: cause.details } : {},
  );
}

/**
 * A person's access token for an app through the authorization-code flow's own steps, without a browser:
 * the authorization request is validated by the endpoint's steps (live client, registered redirect URI,
 * PKCE with S256), the person signs in with their password (throttled like the form), consents as the
 * consent page's Allow does (recorded, with the placemaker permission when asked), the code is issued, and
 * it is exchanged after client authentication with the PKCE verifier. A refusal names the step.
 */
export async function grantInProcess(
  deps: IdentityDeps,
  input: InProcessGrantInput,
): Promise<InProcessGrant> {
  const verifier = randomBytes(32).toString('base64url');
  // No redirect URI given: the app's first registered one (an unknown client fails at the first step).
  const redirectUri =
    input.app.redirectUri ?? (await findLiveApp(deps, input.app.clientId))?.redirectUris[0] ?? '';
  const params = collectParams({
    client_id: input.app.clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    state: randomBytes(16).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...(input.placemaker ? { mode: 'placemaker' } : {}),
  });
  const request = await validateAuthorizationRequest(authorizationSteps(deps), params).catch((error) => {
    throw refused('authorization request', error);
  });

  const person = await (input.person
    ? signIn(deps, { ...input.person, ip: IN_PROCESS_ADDRESS })
    : signUp(deps, newPerson())
  ).catch((error) => {
    throw refused(input.person ? 'sign-in' : 'sign-up', error);
  });

  const consented = await alreadyConsented(deps, person.userId, request);
  const code = await issueAuthorizationCode(deps, request, person.userId, { recordConsent: !consented });

  const app = await authenticateClient(deps, input.app.clientId, input.app.clientSecret);
  if (!app) throw new CairnError(401, 'invalid_client', 'token request: client authentication failed');
  const token = await exchangeAuthorizationCode(
    deps,
    app,
    collectParams({ code, redirect_uri: request.redirectUri, code_verifier: verifier }),
    input.accessToken !== undefined ? { accessToken: input.accessToken } : {},
  ).catch((error) => {
    throw refused('token request', error);
  });
  return { ...token, user_id: person.userId, email: person.email };
}

function newPerson() {
  const id = randomBytes(6).toString('hex');
  return {
    email: `person-${id}@example.com`,
    displayName: `Test Person ${id}`,
    password: randomBytes(18).toString('base64url'),
  };
}

/**
 * A session token from a third-party user's access token, as POST /auth/session-token makes it: the token
 * must be live (the bearer resolver) and carry the placemaker permission.
 */
export async function sessionTokenInProcess(
  deps: IdentityDeps,
  accessToken: string,
): Promise<{ session_token: string }> {
  const auth = await deps.resolver.resolve(accessToken);
  return createSessionToken(deps, auth);
}
