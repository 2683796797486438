import { CairnError, toCairnError } from '@cairn/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { disconnectApp, listConnectedApps } from '../accounts/connected-apps.ts';
import { signIn, signUp } from '../accounts/service.ts';
import { findLiveApp } from '../apps/service.ts';
import type { IdentityDeps } from '../deps.ts';
import { renderPageError } from './page-errors.ts';
import { connectedAppsPage, errorPage, signInPage, signUpPage } from './pages.ts';
import { returnAddress } from './return-address.ts';
import { checkCsrf, csrfToken, field, pageHeaders } from './security.ts';
import { currentPerson, endSession, startSession } from './session.ts';

/** The app an authorization request names, so the sign-in page can say who is asking. */
async function appOfReturnTo(deps: IdentityDeps, returnTo: string) {
  if (!returnTo.startsWith('/oauth2/authenticate?')) return undefined;
  const clientId = new URLSearchParams(returnTo.slice(returnTo.indexOf('?') + 1)).get('client_id');
  return clientId ? findLiveApp(deps, clientId) : undefined;
}

/** Sign-up, sign-in, sign-out and "Connected apps": server-rendered forms, CSRF-checked, throttled. */
export function accountRoutes(deps: IdentityDeps, publicUrl: string) {
  const hide = { schema: { hide: true } };

  function csrfFailure(reply: FastifyReply, error: unknown) {
    pageHeaders(reply);
    return reply.status(403).send(errorPage('Please try again', toCairnError(error).message));
  }

  return async function accounts(app: FastifyInstance) {
    app.setErrorHandler(renderPageError);
    app.get('/account/signin', hide, async (request, reply) => {
      const returnTo = returnAddress(field(request.query, 'return_to'));
      pageHeaders(reply);
      const appAsking = await appOfReturnTo(deps, returnTo);
      return reply.send(
        signInPage({
          csrf: csrfToken(request, reply, publicUrl),
          returnTo,
          ...(appAsking ? { app: appAsking } : {}),
        }),
      );
    });

    app.post('/account/signin', hide, async (request, reply) => {
      try {
        checkCsrf(request, field(request.body, 'csrf_token'), publicUrl);
      } catch (error) {
        return csrfFailure(reply, error);
      }
      const returnTo = returnAddress(field(request.body, 'return_to'));
      const email = field(request.body, 'email') ?? '';
      try {
        const person = await signIn(deps, {
          email,
          password: field(request.body, 'password') ?? '',
          ip: request.ip,
        });
        await startSession(deps, request, reply, publicUrl, person.userId);
        return reply.redirect(returnTo, 303);
      } catch (error) {
        const failure = toCairnError(error);
        if (failure.status >= 500) throw error;
        pageHeaders(reply);
        for (const [name, value] of Object.entries(failure.headers)) void reply.header(name, value);
        const csrf = csrfToken(request, reply, publicUrl);
        return reply
          .status(failure.status)
          .send(signInPage({ csrf, returnTo, email, error: failure.message }));
      }
    });

    app.get('/account/signup', hide, async (request, reply) => {
      pageHeaders(reply);
      const returnTo = returnAddress(field(request.query, 'return_to'));
      return reply.send(signUpPage({ csrf: csrfToken(request, reply, publicUrl), returnTo }));
    });

    app.post('/account/signup', hide, async (request, reply) => {
      try {
        checkCsrf(request, field(request.body, 'csrf_token'), publicUrl);
      } catch (error) {
        return csrfFailure(reply, error);
      }
      const returnTo = returnAddress(field(request.body, 'return_to'));
      const email = field(request.body, 'email') ?? '';
      const displayName = field(request.body, 'display_name') ?? '';
      try {
        const person = await signUp(deps, {
          email,
          displayName,
          password: field(request.body, 'password') ?? '',
        });
        await startSession(deps, request, reply, publicUrl, person.userId);
        return reply.redirect(returnTo, 303);
      } catch (error) {
        const failure = toCairnError(error);
        if (failure.status >= 500) throw error;
        pageHeaders(reply);
        const csrf = csrfToken(request, reply, publicUrl);
        return reply
          .status(failure.status)
          .send(signUpPage({ csrf, returnTo, email, displayName, error: failure.message }));
      }
    });

    app.post('/account/signout', hide, async (request, reply) => {
      try {
        checkCsrf(request, field(request.body, 'csrf_token'), publicUrl);
      } catch (error) {
        return csrfFailure(reply, error);
      }
      await endSession(deps, request, reply);
      return reply.redirect('/account/signin', 303);
    });

    async function requirePerson(request: FastifyRequest, reply: FastifyReply) {
      const person = await currentPerson(deps, request);
      if (!person) {
        void reply.redirect(`/account/signin?return_to=${encodeURIComponent(request.url)}`, 303);
        return undefined;
      }
      return person;
    }

    app.get('/account/apps', hide, async (request, reply) => {
      const person = await requirePerson(request, reply);
      if (!person) return reply;
      const apps = await listConnectedApps(deps, person.userId);
      const notice = field(request.query, 'disconnected');
      pageHeaders(reply);
      return reply.send(
        connectedAppsPage({
          csrf: csrfToken(request, reply, publicUrl),
          person,
          apps,
          ...(notice ? { notice: `Disconnected ${notice}. It can no longer act as you.` } : {}),
        }),
      );
    });

    app.post<{ Params: { appId: string } }>(
      '/account/apps/:appId/disconnect',
      hide,
      async (request, reply) => {
        try {
          checkCsrf(request, field(request.body, 'csrf_token'), publicUrl);
        } catch (error) {
          return csrfFailure(reply, error);
        }
        const person = await requirePerson(request, reply);
        if (!person) return reply;
        const connected = (await listConnectedApps(deps, person.userId)).find(
          (a) => a.appId === request.params.appId,
        );
        if (!connected) {
          throw new CairnError(404, 'not_found', 'This application is not connected to your account');
        }
        await disconnectApp(deps, person.userId, connected.appId);
        return reply.redirect(`/account/apps?disconnected=${encodeURIComponent(connected.name)}`, 303);
      },
    );
  };
}
