import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Migration } from './db/migrations.ts';
import type { Db } from './db/types.ts';
import { errorHandler, messageShape } from './error-shapes.ts';
import { notFound } from './errors.ts';
import { type RouteIndex, trackRoutes } from './method-not-allowed.ts';
import type { Metrics } from './metrics.ts';
import { completeOpenApi, filterOpenApi, LICENSE } from './openapi.ts';
import { parseQueryString, refuseUnstorableRequestText } from './request-text.ts';
import { formatSchemaErrors } from './schema-errors.ts';

export interface AppDeps {
  config: Readonly<Config>;
  db: Db;
  clock: Clock;
  log: Logger;
  metrics: Metrics;
}

/** A service: its migrations and an encapsulated Fastify plugin mounted on the API port. */
export interface ServiceModule {
  name: string;
  title: string;
  migrations: Migration[];
  plugin: FastifyPluginAsync;
  /** What /readyz reports about the service besides the database (e.g. the edge's IP database date). */
  readiness?: () => Record<string, unknown>;
}

export type App = Awaited<ReturnType<typeof createApp>>;

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    routeIndex: RouteIndex;
    /**
     * Starts a graceful stop: from now on /readyz answers 503, so a load balancer takes this process out,
     * while every request is still served; resolves after `ms`. Call close() after it.
     */
    drain(ms: number): Promise<void>;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export async function createApp(deps: AppDeps, services: readonly ServiceModule[]) {
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit: 1024 * 1024,
    // Ajv keeps the failing schema, so `x-message` can say what a parameter must be.
    ajv: { customOptions: { keywords: ['x-message'], verbose: true } },
    schemaErrorFormatter: formatSchemaErrors,
    forceCloseConnections: 'idle',
    routerOptions: { querystringParser: parseQueryString },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('deps', deps);
  app.decorateRequest('auth', undefined);
  app.decorate('routeIndex', trackRoutes(app));
  let draining = false;
  app.decorate('drain', async (ms: number) => {
    draining = true;
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  });
  refuseUnstorableRequestText(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Cairn', version: '0.1.0', license: LICENSE },
      servers: [{ url: deps.config.publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          clientCredentials: {
            type: 'http',
            scheme: 'basic',
            description:
              "An OAuth client's id and secret (client_secret_basic); the endpoints also take them as " +
              'client_id and client_secret form fields (client_secret_post)',
          },
        },
      },
    },
  });

  app.addHook('onSend', async function requestIdHeader(request, reply) {
    void reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async function recordMetrics(request, reply) {
    const route = request.routeOptions.url ?? 'unmatched';
    deps.metrics.httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
    deps.metrics.httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  app.setErrorHandler(errorHandler(messageShape));
  app.setNotFoundHandler(async function routeNotFound(request) {
    throw app.routeIndex.notFoundError(request);
  });

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    if (draining) {
      return reply
        .status(503)
        .send({ status: 'draining', message: 'this process is shutting down; send requests to another one' });
    }
    try {
      await deps.db.query('SELECT 1');
      const details: Record<string, unknown> = {};
      for (const service of services) if (service.readiness) details[service.name] = service.readiness();
      return { status: 'ready', ...details };
    } catch {
      return reply.status(503).send({ status: 'unavailable', message: 'database is not reachable' });
    }
  });
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    void reply.header('content-type', deps.metrics.registry.contentType);
    return deps.metrics.registry.metrics();
  });
  let merged: ReturnType<typeof app.swagger> | undefined;
  const document = () => (merged ??= completeOpenApi(app.swagger(), deps.config.publicUrl, services));
  app.get('/openapi.json', { schema: { hide: true } }, async () => document());
  app.get<{ Params: { service: string } }>(
    '/openapi/:service',
    { schema: { hide: true } },
    async (request) => {
      const name = request.params.service.replace(/\.json$/, '');
      const service = services.find((s) => s.name === name);
      if (!service) {
        throw notFound(`No service "${name}"; there are: ${services.map((s) => s.name).join(', ')}`);
      }
      return filterOpenApi(document(), service, deps.config.publicUrl);
    },
  );

  for (const service of services) await app.register(service.plugin);
  await app.ready();
  return app;
}
