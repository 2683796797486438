import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type EditorSession,
  editorSessionOf,
  type IdentityDeps,
  openEditorSession,
  redeemSessionToken,
} from '@cairn/identity';
import {
  type AuthContext,
  badRequest,
  CairnError,
  type ErrorShape,
  errorHandler,
  forbidden,
  pageHeaders,
  toCairnError,
  unauthorized,
} from '@cairn/kit';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Params, PlacemakersBackend, SuggestionKind } from '../backend.ts';
import type { PlacemakersConfig } from '../map/config.ts';
import { DIST } from '../web-app.ts';
import { EDITOR_COOKIE, setEditorCookie } from './cookie.ts';
import { mapOrigins, mapRoutes } from './map-routes.ts';
import { refusalPage } from './pages.ts';

declare module 'fastify' {
  interface FastifyRequest {
    editor: EditorSession | undefined;
  }
}

/** The attribution of everything done in the editor: the person, through the app that opened it. */
export function editorAuth(session: EditorSession): AuthContext {
  return {
    kind: 'oauth_user',
    organizationId: session.app.organizationId,
    appId: session.app.id,
    userId: session.userId,
    credentialId: session.sessionId,
  };
}

/**
 * The places API's `{message}`, plus the parameter it is about, so forms can show the error beside the field.
 * The editor's JSON bodies are flat objects of parameters, so a body error's pointer names one (`/name`).
 */
const editorErrorShape: ErrorShape = (error) => {
  const parameter = error.location?.parameter ?? topLevelName(error.location?.pointer);
  return { message: error.message, ...(parameter ? { parameter } : {}) };
};

function topLevelName(pointer: string | undefined): string | undefined {
  const first = pointer?.split('/')[1];
  return first ? first.replace(/~1/g, '/').replace(/~0/g, '~') : undefined;
}

/** A JSON body of named text values, as the places API takes its query parameters. */
function paramsOf(body: unknown): Params {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw badRequest('The request body must be a JSON object of parameters');
  const params: Params = {};
  for (const [name, value] of Object.entries(body)) {
    if (typeof value !== 'string') throw badRequest(`Parameter ${name} must be text`, { parameter: name });
    params[name] = value;
  }
  return params;
}

const EDITOR_CONSENT_MISSING =
  "Your consent for this app does not include the placemaker permission (opening the place editor and suggesting and voting on edits as you), so the editor can't save changes. The app can ask for it by sending you to /oauth2/authenticate with mode=placemaker; then open the editor again from the app";

const SUGGESTIONS: readonly SuggestionKind[] = ['edit', 'remove', 'flag', 'merge', 'tip'];

const APP_PAGES = [
  '/placemakers/',
  '/placemakers/place/:id',
  '/placemakers/review',
  '/placemakers/my-edits',
  '/placemakers/new',
];

export function placemakersRoutes(
  identity: IdentityDeps,
  backend: PlacemakersBackend,
  publicUrl: string,
  config: PlacemakersConfig,
) {
  const connect = mapOrigins(config.mapStyle);
  let indexHtml: string | undefined;
  const index = () => (indexHtml ??= readFileSync(join(DIST, 'index.html'), 'utf8'));

  return async function placemakers(app: FastifyInstance) {
    app.decorateRequest('editor', undefined);

    /** Redeems the session token once, opens the editor session, and leaves the token out of the URL. */
    app.get('/placemakers/home', { schema: { hide: true } }, async (request, reply) => {
      const token = (request.query as Record<string, unknown>).session_token;
      if (typeof token !== 'string' || token === '') {
        pageHeaders(reply);
        return reply.status(400).send(refusalPage('No session token', 'This link has no session_token.'));
      }
      try {
        const redeemed = await redeemSessionToken(identity, token);
        const { cookie, expiresAt } = await openEditorSession(identity, redeemed);
        setEditorCookie(request, reply, publicUrl, cookie, expiresAt);
        return reply.header('cache-control', 'no-store').redirect('/placemakers/', 303);
      } catch (error) {
        const refusal = toCairnError(error);
        if (refusal.status >= 500) throw error;
        pageHeaders(reply);
        const title =
          refusal.code === 'session_token_expired' ? 'This link has expired' : 'This link does not work';
        return reply.status(refusal.status).send(refusalPage(title, refusal.message));
      }
    });

    async function loadSession(request: FastifyRequest) {
      request.editor = await editorSessionOf(identity, request.cookies[EDITOR_COOKIE]);
      return request.editor;
    }

    for (const path of APP_PAGES) {
      app.get(path, { schema: { hide: true } }, async (request, reply) => {
        const session = await loadSession(request);
        if (!session) {
          pageHeaders(reply);
          return reply
            .status(401)
            .send(refusalPage('Open the editor from your app', 'You are not signed in to the place editor.'));
        }
        pageHeaders(reply, { frameAncestors: session.app.embedOrigins, scripts: true, connect });
        return reply.send(index());
      });
    }

    await app.register(fastifyStatic, {
      root: join(DIST, 'assets'),
      prefix: '/placemakers/assets/',
      immutable: true,
      maxAge: '365d',
      decorateReply: false,
      index: false,
    });

    await app.register(mapRoutes);

    await app.register(async function editorApi(api) {
      api.setErrorHandler(errorHandler(editorErrorShape));
      api.addHook('onRequest', async function requireEditor(request) {
        if (!(await loadSession(request)))
          throw unauthorized('Your editor session has ended; open the editor from your app again');
        // Cross-site forms cannot send this header without a CORS preflight, which we never allow.
        if (request.method !== 'GET' && request.headers['x-requested-with'] !== 'cairn-editor') {
          throw new CairnError(
            403,
            'csrf',
            'Requests that change data must come from the editor (X-Requested-With: cairn-editor)',
          );
        }
        // Every write needs the placemaker permission (checked again here, not only when the session opened).
        if (request.method !== 'GET' && !request.editor!.placemaker) throw forbidden(EDITOR_CONSENT_MISSING);
      });

      api.get('/placemakers/api/me', { schema: { hide: true } }, async (request) => {
        const session = request.editor!;
        return {
          user: { user_id: session.userId, display_name: session.displayName },
          app: { name: session.app.name, organization: session.app.organizationName },
        };
      });

      /** The basemap to draw (PLACES_MAP_STYLE): Cairn's own, a style URL, an XYZ template or PMTiles. */
      api.get('/placemakers/api/map', { schema: { hide: true } }, async () => config.mapStyle);

      api.get('/placemakers/api/search', { schema: { hide: true } }, async (request) =>
        backend.search(editorAuth(request.editor!), paramsOf(request.query)),
      );

      api.get<{ Params: { id: string } }>(
        '/placemakers/api/places/:id',
        { schema: { hide: true } },
        async (request) => backend.place(editorAuth(request.editor!), request.params.id),
      );

      const hide = { schema: { hide: true } };
      api.get<{ Params: { id: string } }>('/placemakers/api/places/:id/history', hide, async (request) =>
        backend.history(editorAuth(request.editor!), request.params.id),
      );

      api.get<{ Params: { id: string } }>('/placemakers/api/places/:id/tips', hide, async (request) =>
        backend.tips(editorAuth(request.editor!), request.params.id),
      );

      api.post<{ Params: { id: string; kind: string } }>(
        '/placemakers/api/places/:id/suggest/:kind',
        hide,
        async (request) => {
          const kind = request.params.kind as SuggestionKind;
          if (!SUGGESTIONS.includes(kind))
            throw badRequest(`Unknown suggestion "${kind}"; use ${SUGGESTIONS.join(', ')}`);
          return backend.suggest(
            editorAuth(request.editor!),
            request.params.id,
            kind,
            paramsOf(request.body),
          );
        },
      );

      api.post('/placemakers/api/suggest/place', hide, async (request) =>
        backend.suggestPlace(editorAuth(request.editor!), paramsOf(request.body)),
      );

      api.get('/placemakers/api/suggest/status', hide, async (request) =>
        backend.status(editorAuth(request.editor!), paramsOf(request.query)),
      );

      api.get('/placemakers/api/suggest/review', hide, async (request) =>
        backend.review(editorAuth(request.editor!), paramsOf(request.query)),
      );

      api.post<{ Params: { editId: string } }>(
        '/placemakers/api/suggest/:editId/vote',
        hide,
        async (request) =>
          backend.vote(editorAuth(request.editor!), request.params.editId, paramsOf(request.body)),
      );

      api.get('/placemakers/api/me/accuracy', hide, async (request) =>
        backend.accuracy(editorAuth(request.editor!)),
      );
    });
  };
}
