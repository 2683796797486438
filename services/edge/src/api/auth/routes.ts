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
    handle: async ({ auth }) => ({ id: auth.tokenId, status: 'active' }),
  }),
];
