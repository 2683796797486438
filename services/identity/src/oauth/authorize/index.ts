import type { IdentityDeps } from '../../deps.ts';
import type { Params } from '../params.ts';
import { checkClient } from './check-client.ts';
import { checkMode, checkRepeated, checkResponseType, checkState } from './check-parameters.ts';
import { checkPkce } from './check-pkce.ts';
import { checkRedirectUri } from './check-redirect-uri.ts';
import type { AuthorizationRequest, AuthorizeStep } from './request.ts';

export type { AuthorizationRequest } from './request.ts';

const KEPT = [
  'client_id',
  'response_type',
  'redirect_uri',
  'state',
  'code_challenge',
  'code_challenge_method',
  'mode',
];

/**
 * The authorization request, checked step by step. The first two steps fail as pages (no trusted redirect
 * yet); every later step fails as a redirect carrying `error` (RFC 6749 §4.1.2.1). `state` is read before
 * the others so that error redirects can echo it.
 */
export function authorizationSteps(deps: Pick<IdentityDeps, 'db'>): AuthorizeStep[] {
  return [
    checkClient(deps),
    checkRedirectUri,
    checkState,
    checkRepeated,
    checkResponseType,
    checkPkce,
    checkMode,
  ];
}

export async function validateAuthorizationRequest(
  steps: AuthorizeStep[],
  params: Params,
  partial: Partial<AuthorizationRequest> = {},
): Promise<AuthorizationRequest> {
  for (const step of steps) await step(params, partial);
  partial.params = Object.fromEntries(
    KEPT.filter((k) => params.values[k] !== undefined).map((k) => [k, params.values[k]!]),
  );
  return partial as AuthorizationRequest;
}
