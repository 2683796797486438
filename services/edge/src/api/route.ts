import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import type { EdgeDeps } from '../deps.ts';
import { authenticate, type EdgeAuth, zoneFor } from './auth/authenticate.ts';
import type { Area, Level } from './auth/permissions.ts';
import { envelopeOf, envelopeSchema, errorEnvelopeSchema } from './envelope.ts';
import { invalidBody } from './errors.ts';
import type { QueryOf, QuerySpec } from './query.ts';
import type { JsonSchema, Static, TSchema } from './schema.ts';
import { formatEdgeErrors, queryValues } from './validation.ts';
import type { Zone } from './zones/store.ts';

/**
 * A path parameter other than zone_id: its schema (a pattern or enum) and how a value that does not
 * match is refused: `notFound`, the 404 naming the path (`Could not route to …`), or `message`, a 400
 * naming the parameter; `{value}` in either is the value given.
 */
export interface PathParam {
  schema: JsonSchema;
  notFound?: string;
  message?: string;
}

export type Access = { zone: Area; level: Level } | 'account' | 'token';

export interface RouteContext<Q, B> {
  deps: EdgeDeps;
  auth: EdgeAuth;
  /** The zone of `:zone_id`, loaded and permission-checked (routes with zone access only). */
  zone: Zone;
  params: Record<string, string>;
  query: Q;
  body: B;
  /** The request path without the query, for error messages. */
  path: string;
  request: FastifyRequest;
}

export interface RouteDef<S extends QuerySpec, B extends TSchema | undefined> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  summary: string;
  description?: string;
  access: Access;
  params?: Record<string, PathParam>;
  query?: S;
  /** The bodyless calls (DELETE) may still be sent `{}` or nothing. */
  body?: B;
  result?: JsonSchema;
  list?: boolean;
  /** 204 without a body (ruleset and version deletes). */
  noContent?: boolean;
  handle(ctx: RouteContext<QueryOf<S>, B extends TSchema ? Static<B> : undefined>): Promise<unknown>;
}

/** A route with its types erased, ready to mount. */
export interface EdgeRoute {
  readonly method: string;
  readonly url: string;
  mount(app: FastifyInstance, deps: EdgeDeps): void;
}

/** Fastify's validation error, kept as Ajv reported it: the handler words it once the caller is known. */
class EdgeValidationError extends Error {}

function schemaOf(def: RouteDef<QuerySpec, TSchema | undefined>): Record<string, unknown> {
  const paramNames = [...def.url.matchAll(/:([a-z_]+)/g)].map((m) => m[1]!);
  const params = Object.fromEntries(
    paramNames.map((n) => {
      const p = def.params?.[n];
      if (!p) return [n, { type: 'string' }];
      const words = p.notFound === undefined ? { 'x-message': p.message } : { 'x-not-found': p.notFound };
      return [n, { type: 'string', ...p.schema, ...words }];
    }),
  );
  return {
    tags: ['edge'],
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    security: [{ bearer: [] }],
    params: { type: 'object', properties: params, required: paramNames },
    ...(def.query ? { querystring: { type: 'object', properties: def.query } } : {}),
    ...(def.body ? { body: def.body } : {}),
    response: {
      ...(def.noContent
        ? { 204: { type: 'null', description: 'No content' } }
        : { 200: envelopeSchema(def.result ?? {}, def.list === true) }),
      '4xx': errorEnvelopeSchema,
      '5xx': errorEnvelopeSchema,
    },
  };
}

/**
 * An edge API route: its params, query and body schemas are validated by Fastify (Ajv, validation.ts)
 * and documented in /openapi.json. The caller is authenticated (and the zone loaded) first, as the real
 * service answers 401/403/404 before it looks at the input; then a validation failure is the
 * envelope's 400 (or a path parameter's 404).
 */
export function route<S extends QuerySpec, B extends TSchema | undefined = undefined>(
  def: RouteDef<S, B>,
): EdgeRoute {
  const d = def as unknown as RouteDef<QuerySpec, TSchema | undefined>;
  return {
    method: def.method,
    url: def.url,
    mount(app, deps) {
      const queryProperties = (def.query ?? {}) as Record<string, JsonSchema>;
      app.route({
        method: def.method as HTTPMethods,
        url: def.url,
        schema: schemaOf(d),
        attachValidation: true,
        schemaErrorFormatter: () => new EdgeValidationError('invalid request'),
        ...(def.query
          ? {
              preValidation(request: FastifyRequest, _reply: unknown, done: () => void) {
                request.query = queryValues(
                  request.query as Record<string, string | string[] | undefined>,
                  queryProperties,
                );
                done();
              },
            }
          : {}),
        handler: async (request, reply) => {
          const path = request.url.split('?')[0] ?? request.url;
          const auth = await authenticate(deps, request);
          const params = request.params as Record<string, string>;
          let zone: Zone | undefined;
          if (typeof def.access === 'object') {
            zone = await zoneFor(deps, auth, params.zone_id ?? '', def.access.zone, def.access.level, path);
          }
          const invalid = request.validationError as
            | (Error & { validation?: []; validationContext?: string })
            | undefined;
          if (invalid) {
            if (invalid.validationContext === 'body' && request.body === undefined)
              throw invalidBody('', 'invalid JSON: the request needs a JSON body');
            throw formatEdgeErrors(invalid.validation ?? [], invalid.validationContext ?? 'body', { path });
          }
          const value = await d.handle({
            deps,
            auth,
            zone: zone as Zone,
            params,
            query: request.query as QueryOf<QuerySpec>,
            body: request.body as undefined,
            path,
            request,
          });
          if (def.noContent) return reply.status(204).send();
          const { status, body: envelope } = envelopeOf(value);
          return reply.status(status).type('application/json').send(envelope);
        },
      });
    },
  };
}
