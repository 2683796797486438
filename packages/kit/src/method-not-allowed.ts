import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { methodNotAllowed, notFound } from './errors.ts';

/**
 * Fastify answers 404 for a known path with an unknown method; HTTP says 405 with `Allow`. We mirror every
 * route into a second router that only answers "which methods does this path have?".
 */
export class RouteIndex {
  private readonly router = FindMyWay();
  private readonly methods = new Set<HTTPMethod>();
  private readonly registered: IndexedRoute[] = [];

  add(method: string | string[], url: string, schema?: FastifySchema) {
    for (const m of Array.isArray(method) ? method : [method]) {
      const upper = m.toUpperCase() as HTTPMethod;
      if (this.router.hasRoute(upper, url)) continue;
      this.router.on(upper, url, () => {});
      this.methods.add(upper);
      this.registered.push({ method: upper, url, ...(schema ? { schema } : {}) });
    }
  }

  /** Every route of the app (HEAD left out), with its schema: what tests enumerate to reach every route. */
  routes(): readonly IndexedRoute[] {
    return this.registered;
  }

  allowed(path: string): string[] {
    return [...this.methods].filter((m) => this.router.find(m, path) !== null);
  }

  /** Throws the 405 (with Allow) or 404 error for a request that matched no route. */
  notFoundError(request: FastifyRequest) {
    const path = request.url.split('?')[0] ?? '/';
    const allow = this.allowed(path);
    if (allow.length > 0 && !allow.includes(request.method)) {
      return methodNotAllowed(
        `Method ${request.method} is not allowed on ${path}; use ${allow.join(' or ')}`,
        allow,
      );
    }
    return notFound(`No route ${request.method} ${path}`);
  }
}

export interface IndexedRoute {
  method: HTTPMethod;
  url: string;
  schema?: FastifySchema;
}

export function trackRoutes(app: FastifyInstance): RouteIndex {
  const index = new RouteIndex();
  app.addHook('onRoute', (route) => {
    if (route.method === 'HEAD') return;
    index.add(route.method, route.url ?? route.path, route.schema);
  });
  return index;
}

export type NotFoundRenderer = (request: FastifyRequest, reply: FastifyReply) => unknown;
