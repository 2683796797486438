import { createApiToken, edgeMigrations, ensureAccount } from '@cairn/edge';
import {
  addMember,
  createOrganization,
  createServiceKey,
  createSessionToken,
  identityMigrations,
  registerApp,
  signUp,
} from '@cairn/identity';
import { connectThirdPartyUser } from '@cairn/identity/testing';
import { createFakeClock, type IndexedRoute } from '@cairn/kit';
import { createTestDeps, serveOnLoopback, type TestDeps } from '@cairn/kit/testing';
import { gazetteer, generatePlaces, placesMigrations } from '@cairn/places';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeServices, type Services } from '../src/runtime.ts';

/**
 * Every route of the whole app, every parameter, with text the database can't store or that does not
 * decode: NUL, lone surrogates, invalid percent-encoding, bytes that are not UTF-8. The answer is always a
 * 4xx, never a 5xx. Requests carry working credentials for the route's API, so they get past
 * authentication to the point where parameters are read.
 */

let deps: TestDeps;
let services: Services;
let server: Awaited<ReturnType<typeof serveOnLoopback>>;
let routes: readonly IndexedRoute[];
const credentials = {
  serviceKey: '',
  edgeToken: '',
  clientId: '',
  clientSecret: '',
  person: '', // cookie header of a signed-in organization member
  editor: '', // cookie header of a placemaker editor session
};
const ids = { orgId: '', placeId: '', zoneId: '' };

beforeAll(async () => {
  deps = await createTestDeps([...identityMigrations, ...placesMigrations, ...edgeMigrations], {
    clock: createFakeClock(Date.now()),
  });
  services = composeServices(deps, { PLACES_DEMO_COUNT: '0', PLACES_RATE_LIMIT: '100000' });
  await services.identity.start();
  await services.places.start();
  server = await serveOnLoopback(deps, services.modules);
  routes = server.app.routeIndex.routes();
  await generatePlaces(deps.db, { count: 5, seed: 'nul', cities: [gazetteer().resolve('Paris, FR')!] });
  ids.placeId = (await deps.db.query<{ id: string }>('SELECT fsq_place_id AS id FROM places LIMIT 1'))
    .rows[0]!.id;

  const identity = services.identity.deps;
  const org = await createOrganization(identity, 'Nul Co');
  ids.orgId = org.id;
  credentials.serviceKey = (await createServiceKey(identity, { organizationId: org.id })).secret;
  const registered = await registerApp(identity, {
    organizationId: org.id,
    name: 'Nul App',
    redirectUris: ['https://nul.example.com/cb'],
  });
  credentials.clientId = registered.app.clientId;
  credentials.clientSecret = registered.clientSecret;

  await signUp(identity, {
    email: 'nul@example.com',
    displayName: 'Nul Person',
    password: 'a long password 1',
  });
  await addMember(identity, org.id, 'nul@example.com', 'owner');
  const signin = await fetch(`${server.baseUrl}/account/signin`);
  const csrf = signin.headers.getSetCookie()[0]!.split(';')[0]!;
  const token = /name="csrf_token" value="([^"]+)"/.exec(await signin.text())![1]!;
  const signedIn = await fetch(`${server.baseUrl}/account/signin`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrf },
    body: new URLSearchParams({ csrf_token: token, email: 'nul@example.com', password: 'a long password 1' }),
  });
  credentials.person = `${csrf}; ${signedIn.headers.getSetCookie()[0]!.split(';')[0]!}`;

  const editor = await connectThirdPartyUser(identity, { organizationId: org.id, placemaker: true });
  const auth = await services.identity.resolveBearer(editor.accessToken);
  const { session_token } = await createSessionToken(identity, auth);
  const opened = await fetch(`${server.baseUrl}/placemakers/home?session_token=${session_token}`, {
    redirect: 'manual',
  });
  credentials.editor = opened.headers.getSetCookie()[0]!.split(';')[0]!;

  const account = await ensureAccount(services.edge.deps, 'Nul Edge');
  credentials.edgeToken = (
    await createApiToken(services.edge.deps, {
      accountId: account.id,
      name: 'nul',
      zoneIds: ['*'],
      permissions: ['edit'],
    })
  ).secret;
}, 120_000);

afterAll(async () => {
  await server?.close();
  await services?.places.stop();
  await services?.identity.stop();
  await deps?.db.close();
});

/** Parameter names of hidden routes (forms, OAuth, the editor), besides those in route schemas. */
const KNOWN_NAMES = [
  'client_id',
  'client_secret',
  'code',
  'code_verifier',
  'code_challenge',
  'code_challenge_method',
  'grant_type',
  'redirect_uri',
  'response_type',
  'state',
  'mode',
  'decision',
  'csrf_token',
  'token',
  'token_type_hint',
  'email',
  'password',
  'display_name',
  'return_to',
  'name',
  'redirect_uris',
  'embed_origins',
  'query',
  'll',
  'session_token',
  'first_name',
  'target_user_id',
  'vote',
  'api_token',
  'x',
];

/** Text that can't be stored or decoded, as it appears percent-encoded in a URL or form. */
const BAD_ENCODED = ['%00', 'caf%00e', '%ED%A0%80', '%ZZ', '%C3', '%FF', 'a%E2%82', '%F4%90%80%80', '%'];
/** The same in JSON text (escapes that decode to NUL or a lone surrogate). */
const BAD_JSON = ['"\\u0000"', '"caf\\u0000e"', '"\\ud800"', '"x\\udc00y"', '["\\u0000"]', '{"\\u0000":1}'];

type Where = 'query' | 'path' | 'form' | 'json' | 'json-bytes' | 'basic';

interface Attempt {
  route: IndexedRoute;
  where: Where;
  name: string;
  bad: string;
}

function namesOf(route: IndexedRoute): string[] {
  const schema = route.schema as
    | { querystring?: { properties?: object }; body?: { properties?: object } }
    | undefined;
  return [
    ...Object.keys(schema?.querystring?.properties ?? {}),
    ...Object.keys(schema?.body?.properties ?? {}),
    ...KNOWN_NAMES,
  ];
}

const attempts = fc.nat().chain((n) => {
  const route = routes[n % routes.length]!;
  const wheres: Where[] =
    route.method === 'GET' || route.method === 'HEAD' ? ['query'] : ['query', 'form', 'json', 'json-bytes'];
  if (route.url.includes(':') || route.url.includes('*')) wheres.push('path');
  if (route.url.startsWith('/oauth2/')) wheres.push('basic');
  return fc.constantFrom(...wheres).chain((where) =>
    fc.record({
      route: fc.constant(route),
      where: fc.constant(where),
      name: fc.constantFrom(...namesOf(route)),
      bad: where === 'json' ? fc.constantFrom(...BAD_JSON) : fc.constantFrom(...BAD_ENCODED),
    }),
  );
});

/** The credentials each API expects (its bearer, version header, cookie, CSRF header). */
function headersFor(url: string): Record<string, string> {
  if (url.startsWith('/client/v4')) return { authorization: `Bearer ${credentials.edgeToken}` };
  if (url.startsWith('/placemakers'))
    return { cookie: credentials.editor, 'x-requested-with': 'cairn-editor' };
  if (url.startsWith('/places') || url.startsWith('/users') || url.startsWith('/auth/')) {
    return {
      authorization: `Bearer ${credentials.serviceKey}`,
      'x-places-api-version': '2025-06-17',
      'x-users-api-version': '2025-06-17',
      accept: 'application/json',
    };
  }
  return { cookie: credentials.person };
}

function pathOf(route: IndexedRoute, bad: string | undefined): string {
  const fill: Record<string, string> = {
    orgId: ids.orgId,
    fsq_place_id: ids.placeId,
    id: ids.placeId,
    zone_id: ids.zoneId || '023e105f4ecef8ad9ca31a8372d0c353',
  };
  return route.url
    .replace(/:([A-Za-z_]+)(\([^)]*\))?/g, (_m, name: string) => bad ?? fill[name] ?? 'x')
    .replace('*', bad ?? 'x');
}

async function send(attempt: Attempt): Promise<Response> {
  const { route, where, name, bad } = attempt;
  const headers = headersFor(route.url);
  const oauthClient = `client_id=${credentials.clientId}&client_secret=${credentials.clientSecret}`;
  let query = route.url.startsWith('/oauth2/') && where !== 'basic' ? oauthClient : '';
  let body: string | Uint8Array | undefined;
  if (where === 'query') query = `${query}&${name}=${bad}`;
  if (where === 'form') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = `${name}=${bad}`;
  }
  if (where === 'json') {
    headers['content-type'] = 'application/json';
    body = `{${JSON.stringify(name)}:${bad}}`;
  }
  if (where === 'json-bytes') {
    headers['content-type'] = 'application/json';
    body = Buffer.concat([
      Buffer.from(`{${JSON.stringify(name)}:"`),
      Buffer.from([0xff, 0xc3]),
      Buffer.from('"}'),
    ]);
  }
  if (where === 'basic') {
    const credentialsText = name === 'client_secret' ? `${credentials.clientId}:${bad}` : `${bad}:x`;
    headers.authorization = `Basic ${Buffer.from(credentialsText, 'latin1').toString('base64')}`;
  }
  const method = route.method;
  const path = pathOf(route, where === 'path' ? bad : undefined);
  return fetch(`${server.baseUrl}${path}${query ? `?${query.replace(/^&/, '')}` : ''}`, {
    method,
    redirect: 'manual',
    headers,
    ...(body !== undefined && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
  });
}

describe('text the database cannot store, on every route of the app', () => {
  it('enumerates the routes of every service', () => {
    const prefixes = new Set(routes.map((r) => r.url.split('/')[1]));
    for (const prefix of [
      'oauth2',
      'account',
      'console',
      'users',
      'places',
      'placemakers',
      'client',
      'dashboard',
    ]) {
      expect(prefixes).toContain(prefix);
    }
  });

  it('answers 4xx, never 5xx, for every route and parameter', async () => {
    await fc.assert(
      fc.asyncProperty(attempts, async (attempt) => {
        const answer = await send(attempt);
        const text = await answer.text();
        expect(
          answer.status,
          `${attempt.route.method} ${attempt.route.url} ${attempt.where} ${attempt.name}=${attempt.bad}: ${text.slice(0, 300)}`,
        ).toBeGreaterThanOrEqual(400);
        expect(answer.status, text.slice(0, 300)).toBeLessThan(500);
        // The mechanism's 400; a form where an API takes only JSON is 415; Basic is read only by the
        // token, revocation and introspection endpoints (elsewhere the page's own checks answer first).
        if (attempt.where === 'form') expect([400, 415]).toContain(answer.status);
        else if (attempt.where !== 'basic') expect(answer.status, text.slice(0, 300)).toBe(400);
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it('sweeps every declared parameter of every route once, and each route with a stray one', async () => {
    const sweep: Attempt[] = [];
    let turn = 0;
    const next = (list: readonly string[]) => list[turn++ % list.length]!;
    for (const route of routes) {
      const schema = route.schema as
        | { querystring?: { properties?: object }; body?: { properties?: object } }
        | undefined;
      const bodiless = route.method === 'GET' || route.method === 'HEAD';
      for (const name of Object.keys(schema?.querystring?.properties ?? {})) {
        sweep.push({ route, where: 'query', name, bad: next(BAD_ENCODED) });
      }
      for (const name of Object.keys(schema?.body?.properties ?? {})) {
        sweep.push({ route, where: 'json', name, bad: next(BAD_JSON) });
      }
      if (route.url.includes(':')) sweep.push({ route, where: 'path', name: 'path', bad: next(BAD_ENCODED) });
      sweep.push({ route, where: 'query', name: 'x', bad: next(BAD_ENCODED) });
      if (!bodiless) {
        sweep.push({ route, where: 'form', name: 'name', bad: next(BAD_ENCODED) });
        sweep.push({ route, where: 'json', name: 'name', bad: next(BAD_JSON) });
        sweep.push({ route, where: 'json-bytes', name: 'name', bad: '' });
      }
    }
    const wrong: string[] = [];
    for (const attempt of sweep) {
      const answer = await send(attempt);
      await answer.arrayBuffer();
      const expected = attempt.where === 'form' ? [400, 415] : [400];
      if (!expected.includes(answer.status)) {
        wrong.push(
          `${answer.status} ${attempt.route.method} ${attempt.route.url} ${attempt.where} ${attempt.name}=${attempt.bad}`,
        );
      }
    }
    expect(wrong).toEqual([]);
    expect(sweep.length).toBeGreaterThan(routes.length * 2);
  }, 120_000);

  it('refuses NUL in the places and editor searches with 400 naming the parameter', async () => {
    const places = headersFor('/places');
    for (const [path, name] of [
      ['/places/search?query=caf%00e', 'query'],
      ['/places/autocomplete?query=caf%00e', 'query'],
      ['/places/match?name=%00', 'name'],
    ] as const) {
      const answer = await fetch(`${server.baseUrl}${path}`, { headers: places });
      expect(answer.status, path).toBe(400);
      expect(((await answer.json()) as { message: string }).message).toMatch(
        new RegExp(`^Query parameter ${name} contains a NUL`),
      );
    }
    const editor = await fetch(`${server.baseUrl}/placemakers/api/search?query=caf%00e`, {
      headers: headersFor('/placemakers'),
    });
    expect(editor.status).toBe(400);
    expect(await editor.json()).toEqual({
      message:
        'Query parameter query contains a NUL character (U+0000) at character 4; text cannot contain it',
      parameter: 'query',
    });
  });
});
