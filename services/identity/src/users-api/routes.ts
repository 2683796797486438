import { type AuthenticateHook, errorHandler, messageShape, requireVersionHeader } from '@cairn/kit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { IdentityDeps } from '../deps.ts';
import { createManagedUser, deleteManagedUser, refreshManagedUserToken } from '../managed-users/service.ts';
import { createSessionToken } from '../session-tokens/service.ts';
import { requireJsonAccept } from './accept.ts';
import {
  CreatedUser,
  CreateQuery,
  DeletedUser,
  errorResponses,
  RefreshedToken,
  SessionToken,
  TargetUserQuery,
  usersApiHeaders,
} from './schemas.ts';

export const USERS_API_VERSION_HEADER = 'X-Users-Api-Version';

/** The users API of the seed: managed users, managed by an organization's service key. */
export function usersApiRoutes(deps: IdentityDeps, authenticate: AuthenticateHook) {
  return async function usersApi(parent: FastifyInstance) {
    const app = parent.withTypeProvider<TypeBoxTypeProvider>();
    app.setErrorHandler(errorHandler(messageShape));
    app.addHook('onRequest', requireVersionHeader(USERS_API_VERSION_HEADER));
    app.addHook('onRequest', requireJsonAccept);
    app.addHook('onRequest', authenticate);

    const common = { tags: ['identity'], security: [{ bearer: [] }], headers: usersApiHeaders };
    const emptyToNull = (v: string | undefined) => (v === undefined || v === '' ? null : v);

    app.post(
      '/users/managed-user/create',
      {
        schema: {
          ...common,
          summary: 'Create a managed user',
          querystring: CreateQuery,
          response: { 200: CreatedUser, ...errorResponses },
        },
      },
      async (request) =>
        createManagedUser(deps, request.auth!, {
          firstName: emptyToNull(request.query.first_name),
          lastName: emptyToNull(request.query.last_name),
        }),
    );

    app.post(
      '/users/managed-user/refresh-token',
      {
        schema: {
          ...common,
          summary: "Replace a managed user's access token (the previous one stops working)",
          querystring: TargetUserQuery,
          response: { 200: RefreshedToken, ...errorResponses },
        },
      },
      async (request) => refreshManagedUserToken(deps, request.auth!, Number(request.query.target_user_id)),
    );

    app.post(
      '/auth/session-token',
      {
        schema: {
          ...common,
          summary:
            "Create a 10-minute session token for the embedded place-editing UI (Bearer: a third-party user's access token)",
          response: { 200: SessionToken, ...errorResponses },
        },
      },
      async (request) => createSessionToken(deps, request.auth!),
    );

    app.post(
      '/users/managed-user/delete',
      {
        schema: {
          ...common,
          summary: 'Delete a managed user and revoke all its tokens',
          querystring: TargetUserQuery,
          response: { 200: DeletedUser, ...errorResponses },
        },
      },
      async (request) => deleteManagedUser(deps, request.auth!, Number(request.query.target_user_id)),
    );
  };
}
