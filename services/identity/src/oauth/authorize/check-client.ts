import { findLiveApp } from '../../apps/service.ts';
import type { IdentityDeps } from '../../deps.ts';
import { pageError } from '../errors.ts';
import type { AuthorizeStep } from './request.ts';

/** client_id names a registered, live application; otherwise a page says so (nothing to redirect to). */
export function checkClient(deps: Pick<IdentityDeps, 'db'>): AuthorizeStep {
  return async function checkClient(params, request) {
    const clientId = params.values.client_id;
    if (params.repeated.has('client_id')) throw pageError('The request names client_id more than once.');
    if (!clientId)
      throw pageError('The request has no client_id: the application that sent you here is misconfigured.');
    const app = await findLiveApp(deps, clientId);
    if (!app) throw pageError(`No application has the client_id "${clientId.slice(0, 64)}".`);
    request.app = app;
  };
}
