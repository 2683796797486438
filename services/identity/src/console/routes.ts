import { forbidden, toCairnError } from '@cairn/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { listOrganizationApps, registerApp, revokeApp, setPkceRequired } from '../apps/service.ts';
import type { IdentityDeps } from '../deps.ts';
import { getOrganization } from '../organizations/service.ts';
import { createServiceKey, listServiceKeys, revokeServiceKey } from '../service-keys/service.ts';
import { isMember, organizationsOf } from '../store/memberships.ts';
import { renderPageError } from '../web/page-errors.ts';
import { errorPage } from '../web/pages.ts';
import { checkCsrf, csrfToken, field, pageHeaders } from '../web/security.ts';
import { currentPerson, type SignedIn } from '../web/session.ts';
import { consoleHome, organizationPage } from './pages.ts';

const lines = (value: string | undefined) =>
  (value ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

/** The developer console: members manage their organization's service keys and applications. */
export function consoleRoutes(deps: IdentityDeps, publicUrl: string) {
  const hide = { schema: { hide: true } };
  type OrgRequest = FastifyRequest<{ Params: { orgId: string; id?: string } }>;

  async function member(request: OrgRequest, reply: FastifyReply): Promise<SignedIn | undefined> {
    const person = await currentPerson(deps, request);
    if (!person) {
      void reply.redirect(`/account/signin?return_to=${encodeURIComponent(request.url)}`, 303);
      return undefined;
    }
    const orgId = request.params.orgId;
    if (!/^[0-9a-f-]{36}$/.test(orgId) || !(await isMember(deps.db, orgId, person.userId))) {
      throw forbidden('You are not a member of this organization');
    }
    return person;
  }

  async function render(
    request: OrgRequest,
    reply: FastifyReply,
    person: SignedIn,
    extra: { shown?: { title: string; lines: [string, string][] }; error?: string; status?: number } = {},
  ) {
    const organization = await getOrganization(deps.db, request.params.orgId);
    const [keys, apps] = await Promise.all([
      listServiceKeys(deps, organization.id),
      listOrganizationApps(deps, organization.id),
    ]);
    pageHeaders(reply);
    const { status, ...shown } = extra;
    return reply.status(status ?? 200).send(
      organizationPage({
        csrf: csrfToken(request, reply, publicUrl),
        person,
        organization,
        keys,
        apps,
        ...shown,
      }),
    );
  }

  /** A POST handler: CSRF first, membership, then the action; a refused action re-renders with its message. */
  function action(
    run: (
      request: OrgRequest,
      person: SignedIn,
    ) => Promise<{ title: string; lines: [string, string][] } | undefined>,
  ) {
    return async (request: OrgRequest, reply: FastifyReply) => {
      try {
        checkCsrf(request, field(request.body, 'csrf_token'), publicUrl);
      } catch (error) {
        pageHeaders(reply);
        return reply.status(403).send(errorPage('Please try again', toCairnError(error).message));
      }
      const person = await member(request, reply);
      if (!person) return reply;
      try {
        const shown = await run(request, person);
        return render(request, reply, person, shown ? { shown } : {});
      } catch (error) {
        const failure = toCairnError(error);
        if (failure.status >= 500) throw error;
        return render(request, reply, person, { error: failure.message, status: failure.status });
      }
    };
  }

  return async function developerConsole(app: FastifyInstance) {
    app.setErrorHandler(renderPageError);
    app.get('/console', hide, async (request, reply) => {
      const person = await currentPerson(deps, request);
      if (!person) return reply.redirect('/account/signin?return_to=%2Fconsole', 303);
      pageHeaders(reply);
      const organizations = await organizationsOf(deps.db, person.userId);
      return reply.send(consoleHome({ csrf: csrfToken(request, reply, publicUrl), person, organizations }));
    });

    app.get<{ Params: { orgId: string } }>('/console/orgs/:orgId', hide, async (request, reply) => {
      const person = await member(request, reply);
      return person ? render(request, reply, person) : reply;
    });

    app.post<{ Params: { orgId: string } }>(
      '/console/orgs/:orgId/keys',
      hide,
      action(async (request) => {
        const { key, secret } = await createServiceKey(deps, {
          organizationId: request.params.orgId,
          name: field(request.body, 'name') ?? '',
        });
        return { title: `Service key "${key.name}" created`, lines: [['Service key', secret]] };
      }),
    );

    app.post<{ Params: { orgId: string; id: string } }>(
      '/console/orgs/:orgId/keys/:id/revoke',
      hide,
      action(async (request) => {
        await revokeServiceKey(deps, request.params.id!, request.params.orgId);
        return undefined;
      }),
    );

    app.post<{ Params: { orgId: string } }>(
      '/console/orgs/:orgId/apps',
      hide,
      action(async (request) => {
        const { app: created, clientSecret } = await registerApp(deps, {
          organizationId: request.params.orgId,
          name: field(request.body, 'name') ?? '',
          redirectUris: lines(field(request.body, 'redirect_uris')),
          embedOrigins: lines(field(request.body, 'embed_origins')),
          pkceRequired: field(request.body, 'require_pkce') === 'yes',
        });
        return {
          title: `Application "${created.name}" registered`,
          lines: [
            ['client_id', created.clientId],
            ['client_secret', clientSecret],
          ],
        };
      }),
    );

    app.post<{ Params: { orgId: string; id: string } }>(
      '/console/orgs/:orgId/apps/:id/pkce',
      hide,
      action(async (request) => {
        await setPkceRequired(
          deps,
          request.params.id!,
          request.params.orgId,
          field(request.body, 'required') === 'yes',
        );
        return undefined;
      }),
    );

    app.post<{ Params: { orgId: string; id: string } }>(
      '/console/orgs/:orgId/apps/:id/revoke',
      hide,
      action(async (request) => {
        await revokeApp(deps, request.params.id!, request.params.orgId);
        return undefined;
      }),
    );
  };
}
