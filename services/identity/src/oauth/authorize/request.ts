import type { App } from '../../apps/service.ts';
import type { Params } from '../params.ts';

/** An authorization request after validation: everything the consent and the code need. */
export interface AuthorizationRequest {
  app: App;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string | undefined;
  placemaker: boolean;
  /** The validated parameters, to carry through sign-in and the consent form. */
  params: Record<string, string>;
}

export type AuthorizeStep = (params: Params, request: Partial<AuthorizationRequest>) => Promise<void> | void;
