import { type ErrorShape, errorHandler, parseJsonBody } from '@cairn/kit';
import type { FastifyInstance } from 'fastify';
import { authenticate } from '../api/auth/authenticate.ts';
import type { EdgeDeps } from '../deps.ts';
import { type GraphqlRequest, runAnalyticsQuery } from './execute.ts';

function requestOf(body: unknown): GraphqlRequest | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return 'the body must be a JSON object {"query": "...", "variables": {...}}';
  }
  const b = body as Record<string, unknown>;
  if (typeof b.query !== 'string' || b.query === '') return 'query: a GraphQL query string is required';
  if (
    b.variables !== undefined &&
    b.variables !== null &&
    (typeof b.variables !== 'object' || Array.isArray(b.variables))
  ) {
    return 'variables: must be a JSON object';
  }
  if (b.operationName !== undefined && b.operationName !== null && typeof b.operationName !== 'string') {
    return 'operationName: must be a string';
  }
  return {
    query: b.query,
    variables: (b.variables ?? undefined) as Record<string, unknown> | undefined,
    operationName: (b.operationName ?? undefined) as string | undefined,
  };
}

/** GraphQL's answer: `data` as the query asked for it, `errors` when something could not be answered. */
const ANSWER = {
  description: "GraphQL's {data, errors} answer",
  type: 'object',
  additionalProperties: true,
  properties: { data: {}, errors: {} },
};

/** The 400 for a body that is not a GraphQL request, documented in GraphQL's own `{data, errors}` shape. */
const BAD_REQUEST = {
  description: "The body is not a GraphQL request: GraphQL's {data: null, errors} shape",
  type: 'object',
  required: ['data', 'errors'],
  properties: {
    data: { type: 'null' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['message'],
        properties: {
          message: { type: 'string' },
          extensions: { type: 'object', additionalProperties: true },
        },
      },
    },
  },
};

/** A body that is not JSON, for the handler to answer in GraphQL's shape. */
class InvalidJson {
  constructor(readonly problem: string) {}
}

/**
 * The parsed body itself (so kit's check of request text names fields as the client wrote them,
 * `query`), or why it is not JSON.
 */
function bodyOf(bytes: Buffer): unknown {
  const parsed = parseJsonBody(bytes);
  return 'problem' in parsed ? new InvalidJson(parsed.problem) : parsed.value;
}

/**
 * Errors raised before the handler (request text the database can't store, a body too large) in
 * GraphQL's shape too, so they match the route's documented 400 (the edge envelope has no `data`).
 */
const graphqlErrorShape: ErrorShape = (error) => ({
  data: null,
  errors: [
    {
      message: error.expose ? error.message : 'internal error; the query could not be answered',
      extensions: { code: error.status >= 500 ? 'internal' : 'bad_request' },
    },
  ],
});

/**
 * POST /client/v4/graphql: the GraphQL Analytics API's Security Events datasets, read with the zone's API
 * token (or the dashboard's session, as the real dashboard reads the same API). Answers are GraphQL's
 * `{data, errors}`; a body that is not a GraphQL request is a 400 in the same shape.
 */
export function analyticsApi(deps: EdgeDeps, retentionDays: number) {
  return async function analyticsApiPlugin(app: FastifyInstance) {
    // The body is read here, so that JSON that does not parse answers in GraphQL's shape too.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, bytes, done) =>
      done(null, bodyOf(bytes as Buffer)),
    );
    app.setErrorHandler(errorHandler(graphqlErrorShape));
    app.post('/graphql', {
      schema: {
        tags: ['edge'],
        summary: 'GraphQL Analytics API: firewallEventsAdaptive and firewallEventsAdaptiveGroups',
        security: [{ bearer: [] }],
        response: { 200: ANSWER, 400: BAD_REQUEST },
      },
      async handler(request, reply) {
        const body = request.body as InvalidJson | unknown;
        if (body instanceof InvalidJson) {
          return reply.code(400).send({
            data: null,
            errors: [{ message: `invalid JSON: ${body.problem}`, extensions: { code: 'bad_request' } }],
          });
        }
        const parsed = requestOf(body);
        if (typeof parsed === 'string') {
          return reply
            .code(400)
            .send({ data: null, errors: [{ message: parsed, extensions: { code: 'bad_request' } }] });
        }
        let auth: Awaited<ReturnType<typeof authenticate>>;
        try {
          auth = await authenticate(deps, request);
        } catch (e) {
          return reply.send({
            data: null,
            errors: [{ message: (e as Error).message, extensions: { code: 'authz' } }],
          });
        }
        return reply.send(await runAnalyticsQuery({ deps, auth, retentionDays }, parsed));
      },
    });
  };
}
