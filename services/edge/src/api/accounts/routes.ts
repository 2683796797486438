import { Reply } from '../envelope.ts';
import { authenticationError } from '../errors.ts';
import { isHexId } from '../ids.ts';
import { pageParams, paginate } from '../query.ts';
import { type EdgeRoute, route } from '../route.ts';
import { accountJson } from './service.ts';
import { findAccount } from './store.ts';

const accountSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    type: { type: 'string' },
    settings: { type: 'object' },
    created_on: { type: 'string' },
  },
  required: ['id', 'name'],
  additionalProperties: false,
};

export const accountRoutes: EdgeRoute[] = [
  route({
    method: 'GET',
    url: '/accounts',
    summary: "The token's account",
    access: 'token',
    query: pageParams(20, 5, 50),
    result: { type: 'array', items: accountSchema },
    list: true,
    async handle({ deps, auth, query }) {
      const account = await findAccount(deps.db, auth.accountId);
      const page = paginate(account ? [accountJson(account)] : [], query.page, query.per_page);
      return new Reply(page.items, page.info);
    },
  }),
  route({
    method: 'GET',
    url: '/accounts/:account_id',
    summary: 'Account details',
    access: 'account',
    result: accountSchema,
    async handle({ deps, auth, params }) {
      if (!isHexId(params.account_id) || params.account_id !== auth.accountId) {
        throw authenticationError(403, `this API token belongs to another account than ${params.account_id}`);
      }
      const account = await findAccount(deps.db, auth.accountId);
      return account && accountJson(account);
    },
  }),
];
