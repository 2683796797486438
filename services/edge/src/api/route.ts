import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import type { EdgeDeps } from '../deps.ts';
import { authenticate, type EdgeAuth, zoneFor } from './auth/authenticate.ts';
import type { Area, Level } from './auth/permissions.ts';
import type { Decoder, JsonSchema } from './decode.ts';
import { envelopeOf, envelopeSchema, errorEnvelopeSchema } from './envelope.ts';
import { invalidBody } from './errors.ts';
import type { QueryOf, QuerySpec } from './query.ts';
import type { Zone } from './zones/store.ts';

/** Checks a path parameter other than zone_id; throws the area's error for a malformed value. */
export type ParamCheck = (value: string, path: string) => void;

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

export interface RouteDef<S extends QuerySpec, B> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  summary: string;
  description?: string;
  access: Access;
  params?: Record<string, ParamCheck>;
  query?: S;
  body?: Decoder<B>;
  /** The bodyless calls (DELETE) may still be sent `{}` or nothing. */
  result?: JsonSchema;
  list?: boolean;
  /** 204 without a body (ruleset and version deletes). */
  noContent?: boolean;
  handle(ctx: RouteContext<QueryOf<S>, B>): Promise<unknown>;
}

/** A route with its types erased, ready to mount. */
export interface EdgeRoute {
  readonly method: string;
  readonly url: string;
  mount(app: FastifyInstance, deps: EdgeDeps): void;
}

export function route<S extends QuerySpec, B = undefined>(def: RouteDef<S, B>): EdgeRoute {
  return {
    method: def.method,
    url: def.url,
    mount(app, deps) {
      const paramNames = [...def.url.matchAll(/:([a-z_]+)/g)].map((m) => m[1]!);
      const schema: Record<string, unknown> = {
        tags: ['edge'],
        summary: def.summary,
        ...(def.description ? { description: def.description } : {}),
        security: [{ bearer: [] }],
        params: {
          type: 'object',
          properties: Object.fromEntries(paramNames.map((n) => [n, { type: 'string' }])),
          required: paramNames,
        },
        response: {
          ...(def.noContent
            ? { 204: { type: 'null', description: 'No content' } }
            : { 200: envelopeSchema(def.result ?? {}, def.list === true) }),
          '4xx': errorEnvelopeSchema,
          '5xx': errorEnvelopeSchema,
        },
      };
      if (def.query) {
        schema.querystring = {
          type: 'object',
          properties: Object.fromEntries(Object.entries(def.query).map(([k, q]) => [k, q.schema])),
        };
      }
      if (def.body) schema.body = def.body.schema;

      app.route({
        method: def.method as HTTPMethods,
        url: def.url,
        schema,
        handler: async (request, reply) => {
          const path = request.url.split('?')[0] ?? request.url;
          const auth = await authenticate(deps, request);
          const params = request.params as Record<string, string>;
          let zone: Zone | undefined;
          if (typeof def.access === 'object') {
            zone = await zoneFor(deps, auth, params.zone_id ?? '', def.access.zone, def.access.level, path);
          }
          for (const [name, check] of Object.entries(def.params ?? {})) check(params[name] ?? '', path);
          const rawQuery = request.query as Record<string, string | string[] | undefined>;
          const query: Record<string, unknown> = {};
          for (const [name, q] of Object.entries(def.query ?? {}))
            query[name] = q.decode(rawQuery[name], name);
          let body: unknown;
          if (def.body) {
            if (request.body === undefined)
              throw invalidBody('', 'invalid JSON: the request needs a JSON body');
            body = def.body.decode(request.body, '');
          }
          const value = await def.handle({
            deps,
            auth,
            zone: zone as Zone,
            params,
            query: query as QueryOf<S>,
            body: body as B,
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
