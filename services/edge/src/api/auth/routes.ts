import { authenticationError } from '../errors.ts';
import { type EdgeRoute, route } from '../route.ts';

export const tokenRoutes: EdgeRoute[] = [
  route({
    method: 'GET',
    url: '/user/tokens/verify',
    summary: 'Check the API token of this request',
    access: 'token',
    result: {
      type: 'object',
      properties: { id: { type: 'string' }, status: { type: 'string', enum: ['active'] } },
      required: ['id', 'status'],
      additionalProperties: false,
    },
    async handle({ auth }) {
      if (auth.tokenId === null) {
        throw authenticationError(
          401,
          'this call checks an API token; send Authorization: Bearer <API token>',
        );
      }
      return { id: auth.tokenId, status: 'active' };
    },
  }),
];
