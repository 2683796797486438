import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorHandler, pageHeaders } from '@cairn/kit';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findAccount } from '../api/accounts/store.ts';
import { edgeErrorShape } from '../api/envelope.ts';
import { authenticationError, invalidBody } from '../api/errors.ts';
import type { EdgeDeps } from '../deps.ts';
import {
  clearDashboardCookie,
  DASHBOARD_COOKIE,
  DASHBOARD_CSRF_HEADER,
  setDashboardCookie,
} from './cookie.ts';
import {
  csrfMatches,
  type DashboardSession,
  dashboardSessionOf,
  signInWithPassword,
  signInWithToken,
  signOut,
} from './service.ts';
import { DASHBOARD_UI } from './web-app.ts';

const hide = { schema: { hide: true } };

function textField(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidBody(`/${name}`, `${name} must be text`);
  return value;
}

/**
 * The dashboard: one Vite app under /dashboard/ (every path serves it; it routes in the browser), and
 * its sign-in session under /dashboard/api/session. Everything else it does goes through the API v4.
 */
export function dashboardRoutes(deps: EdgeDeps, publicUrl: string) {
  let indexHtml: string | undefined;
  const index = () => (indexHtml ??= readFileSync(join(DASHBOARD_UI.dist, 'index.html'), 'utf8'));

  async function sessionJson(session: DashboardSession) {
    const account = await findAccount(deps.db, session.accountId);
    return {
      actor: session.actor,
      account: { id: session.accountId, name: account?.name ?? session.accountId },
      permissions: session.grants.map((g) => ({ zone: g.zoneId, permission: g.permission })),
      csrf: session.csrf,
      expires_on: session.expiresAt.toISOString(),
    };
  }

  async function requireSession(request: FastifyRequest) {
    const session = await dashboardSessionOf(deps, request.cookies[DASHBOARD_COOKIE]);
    if (!session) throw authenticationError(401, 'not signed in to the dashboard');
    return session;
  }

  return async function dashboard(app: FastifyInstance) {
    app.get('/dashboard', hide, async (_request, reply) => reply.redirect('/dashboard/', 301));
    app.get('/dashboard/*', hide, async (_request, reply) => {
      pageHeaders(reply, { scripts: true });
      return reply.send(index());
    });
    await app.register(fastifyStatic, {
      root: join(DASHBOARD_UI.dist, 'assets'),
      prefix: '/dashboard/assets/',
      immutable: true,
      maxAge: '365d',
      decorateReply: false,
      index: false,
    });

    await app.register(async function sessionApi(api) {
      api.setErrorHandler(errorHandler(edgeErrorShape));
      const envelope = (result: unknown) => ({ result, success: true, errors: [], messages: [] });

      api.get('/dashboard/api/session', hide, async (request, reply) => {
        void reply.header('cache-control', 'no-store');
        return envelope(await sessionJson(await requireSession(request)));
      });

      // JSON only (a cross-site form cannot send it without a preflight, which is never allowed).
      api.post('/dashboard/api/session', hide, async (request, reply) => {
        const body = request.body;
        if (typeof body !== 'object' || body === null || Array.isArray(body)) {
          throw invalidBody('', 'send a JSON object: {"api_token": …} or {"email": …, "password": …}');
        }
        const fields = body as Record<string, unknown>;
        const token = textField(fields, 'api_token');
        const email = textField(fields, 'email');
        const password = textField(fields, 'password');
        let cookie: string;
        if (token !== undefined && token.trim() !== '') {
          cookie = await signInWithToken(deps, { token, ip: request.ip });
        } else if (email !== undefined && email.trim() !== '') {
          if (password === undefined || password === '')
            throw invalidBody('/password', 'enter your password');
          cookie = await signInWithPassword(deps, { email, password, ip: request.ip });
        } else {
          throw invalidBody('', 'sign in with an API token ("api_token") or an email and a password');
        }
        const session = (await dashboardSessionOf(deps, cookie))!;
        setDashboardCookie(request, reply, publicUrl, cookie);
        void reply.header('cache-control', 'no-store');
        return envelope(await sessionJson(session));
      });

      api.delete('/dashboard/api/session', hide, async (request, reply) => {
        const session = await requireSession(request);
        if (!csrfMatches(session, request.headers[DASHBOARD_CSRF_HEADER])) {
          throw authenticationError(403, `signing out needs the ${DASHBOARD_CSRF_HEADER} header`);
        }
        await signOut(deps, request.cookies[DASHBOARD_COOKIE]);
        clearDashboardCookie(reply);
        return envelope(null);
      });
    });
  };
}
