import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createApiToken, edgeMigrations, ensureAccount } from '@cairn/edge';
import { createOrganization, createServiceKey, identityMigrations } from '@cairn/identity';
import { createTestDeps, serveOnLoopback, type TestDeps } from '@cairn/kit/testing';
import { gazetteer, generatePlaces, placesMigrations } from '@cairn/places';
import { createClient as generateHeyApiClient } from '@hey-api/openapi-ts';
import { Ajv, type ValidateFunction } from 'ajv';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeServices, type Services } from '../src/runtime.ts';

/**
 * A client generated from the served OpenAPI, as a newcomer would make one: `openapi-typescript` turns
 * /openapi.json into types, `openapi-fetch` calls the places, users and edge APIs with them. The calls
 * (CALLS below) are type-checked by tsc against the generated types — including calls the types must
 * refuse (`@ts-expect-error`) — and then run against the server; every answer is checked against the
 * response schema the document gives for its status, so the types say what the server sends. A second
 * generator, @hey-api/openapi-ts, makes an SDK whose functions are named by the document's operationIds
 * (`placesSearch`, `usersManagedUserCreate`, `zonesList`); its calls are type-checked and run too.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const TSC = join(ROOT, 'node_modules/.bin/tsc');

let deps: TestDeps;
let services: Services;
let server: Awaited<ReturnType<typeof serveOnLoopback>>;
let spec: OpenApi;
let dir: string;
const given = { baseUrl: '', serviceKey: '', edgeToken: '', accountId: '', placeId: '' };

interface OpenApi {
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: object }> }> }>
  >;
}

beforeAll(async () => {
  deps = await createTestDeps([...identityMigrations, ...placesMigrations, ...edgeMigrations]);
  services = composeServices(deps, { PLACES_DEMO_COUNT: '0', PLACES_RATE_LIMIT: '100000' });
  await services.identity.start();
  await services.places.start();
  server = await serveOnLoopback(deps, services.modules);
  await generatePlaces(deps.db, { count: 30, seed: 'typed', cities: [gazetteer().resolve('Paris, FR')!] });
  given.placeId = (
    await deps.db.query<{ id: string }>('SELECT fsq_place_id AS id FROM places ORDER BY fsq_place_id LIMIT 1')
  ).rows[0]!.id;
  const org = await createOrganization(services.identity.deps, 'Typed Client Co');
  given.serviceKey = (await createServiceKey(services.identity.deps, { organizationId: org.id })).secret;
  const account = await ensureAccount(services.edge.deps, 'Typed Client Edge');
  given.accountId = account.id;
  given.edgeToken = (
    await createApiToken(services.edge.deps, {
      accountId: account.id,
      name: 'typed client',
      zoneIds: ['*'],
      permissions: ['edit'],
    })
  ).secret;
  given.baseUrl = server.baseUrl;
  spec = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as OpenApi;
  // Inside the repository (test-output/ is ignored by git and Biome) so that the calls resolve openapi-fetch.
  await mkdir(join(ROOT, 'test-output'), { recursive: true });
  dir = await mkdtemp(join(ROOT, 'test-output', 'typed-client-'));
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  await server?.close();
  await services?.places.stop();
  await services?.identity.stop();
  await deps?.db.close();
});

/** The calls, in a module of their own: type-checked against the generated `paths`, then run. */
const CALLS = `
import type createClient from 'openapi-fetch';
import type { paths } from './api.ts';

export interface Given { baseUrl: string; serviceKey: string; edgeToken: string; accountId: string; placeId: string }
export interface Exchange { method: string; path: string; status: number; body: unknown }

const PLACES = { 'x-places-api-version': '2025-06-17' } as const;
const USERS = { 'x-users-api-version': '2025-06-17' } as const;
const ALL_FIELDS = 'fsq_place_id,name,latitude,longitude,categories,chains,location,tel,email,website,social_media,link,date_closed,placemaker_url,unresolved_flags,description,hours,price,rating,popularity,date_created,date_refreshed';

export async function run(given: Given, create: typeof createClient): Promise<Exchange[]> {
  const seen: Exchange[] = [];
  const record = async <T extends { response: Response; data?: unknown; error?: unknown }>(
    method: string,
    path: string,
    call: Promise<T>,
  ): Promise<T> => {
    const answer = await call;
    seen.push({ method, path, status: answer.response.status, body: answer.data ?? answer.error });
    return answer;
  };
  const cairn = create<paths>({
    baseUrl: given.baseUrl,
    headers: { authorization: \`Bearer \${given.serviceKey}\` },
  });

  // Places API
  const search = await record('get', '/places/search', cairn.GET('/places/search', {
    params: {
      header: PLACES,
      query: { ll: '48.8566,2.3522', radius: 20000, limit: 5, sort: 'DISTANCE', open_now: false, fields: 'fsq_place_id,name,distance,location' },
    },
  }));
  const first: string | undefined = search.data?.results[0]?.fsq_place_id;
  const distance: number | undefined = search.data?.results[0]?.distance;
  const address: string | undefined = search.data?.results[0]?.location?.address;
  void [distance, address];
  await record('get', '/places/{fsq_place_id}', cairn.GET('/places/{fsq_place_id}', {
    params: { header: PLACES, path: { fsq_place_id: first ?? given.placeId }, query: { tel_format: 'E164', fields: ALL_FIELDS } },
  }));
  await record('get', '/autocomplete', cairn.GET('/autocomplete', {
    params: { header: PLACES, query: { query: 'Par', limit: 20 } },
  }));
  await record('get', '/places/match', cairn.GET('/places/match', {
    params: { header: PLACES, query: { name: 'Zzyzx Qwerty Emporium', ll: '48.8566,2.3522' } },
  }));
  await record('get', '/places/{fsq_place_id}/history', cairn.GET('/places/{fsq_place_id}/history', {
    params: { header: PLACES, path: { fsq_place_id: given.placeId }, query: { limit: 10 } },
  }));
  await record('post', '/places/{fsq_place_id}/suggest/flag', cairn.POST('/places/{fsq_place_id}/suggest/flag', {
    params: { header: PLACES, path: { fsq_place_id: given.placeId }, query: { problem: 'closed', dry_run: true } },
  }));
  await record('get', '/places/suggest/status', cairn.GET('/places/suggest/status', {
    params: { header: PLACES, query: { limit: 5 } },
  }));
  // A refused value: the answer is the documented 400 {message}.
  await record('get', '/places/search', cairn.GET('/places/search', {
    params: { header: PLACES, query: { limit: 51 } },
  }));

  // Users API
  const created = await record('post', '/users/managed-user/create', cairn.POST('/users/managed-user/create', {
    params: { header: USERS, query: { first_name: 'Ada' } },
  }));
  const userId: number | undefined = created.data?.user_id;
  const token: string | undefined = created.data?.access_token;
  const managed = create<paths>({ baseUrl: given.baseUrl, headers: { authorization: \`Bearer \${token}\` } });
  await record('get', '/places/search', managed.GET('/places/search', {
    params: { header: PLACES, query: { near: 'Paris, FR', limit: 2 } },
  }));
  await record('post', '/users/managed-user/refresh-token', cairn.POST('/users/managed-user/refresh-token', {
    params: { header: USERS, query: { target_user_id: String(userId) } },
  }));

  // Edge API
  const edge = create<paths>({ baseUrl: given.baseUrl, headers: { authorization: \`Bearer \${given.edgeToken}\` } });
  await record('get', '/client/v4/user/tokens/verify', edge.GET('/client/v4/user/tokens/verify'));
  await record('get', '/client/v4/accounts', edge.GET('/client/v4/accounts'));
  const zone = await record('post', '/client/v4/zones', edge.POST('/client/v4/zones', {
    body: { name: 'typed.example.com', account: { id: given.accountId }, type: 'full' },
  }));
  const zoneId: string = zone.data?.result?.id ?? '';
  await record('get', '/client/v4/zones', edge.GET('/client/v4/zones', { params: { query: { name: 'typed.example.com' } } }));
  await record('get', '/client/v4/zones/{zone_id}', edge.GET('/client/v4/zones/{zone_id}', { params: { path: { zone_id: zoneId } } }));
  await record('get', '/client/v4/zones/{zone_id}/dns_records', edge.GET('/client/v4/zones/{zone_id}/dns_records', { params: { path: { zone_id: zoneId } } }));
  await record('get', '/client/v4/zones/{zone_id}/rulesets', edge.GET('/client/v4/zones/{zone_id}/rulesets', { params: { path: { zone_id: zoneId } } }));
  await record('get', '/client/v4/zones/{zone_id}/firewall/rules', edge.GET('/client/v4/zones/{zone_id}/firewall/rules', { params: { path: { zone_id: zoneId } } }));
  await record('get', '/client/v4/zones/{zone_id}', edge.GET('/client/v4/zones/{zone_id}', { params: { path: { zone_id: '0'.repeat(32) } } }));
  return seen;
}

/** Calls the generated types refuse: never run, only type-checked. */
export function refused(given: Given, create: typeof createClient) {
  const cairn = create<paths>({ baseUrl: given.baseUrl });
  // @ts-expect-error limit is an integer, not text
  void cairn.GET('/places/search', { params: { header: PLACES, query: { limit: '5' } } });
  // @ts-expect-error sort is one of RELEVANCE, RATING, DISTANCE, POPULARITY
  void cairn.GET('/places/search', { params: { header: PLACES, query: { sort: 'BEST' } } });
  // @ts-expect-error the version header is required
  void cairn.GET('/places/search', { params: { query: {} } });
  // @ts-expect-error the users API has one version
  void cairn.POST('/users/managed-user/create', { params: { header: { 'x-users-api-version': '2024-01-01' } } });
  // @ts-expect-error a new place's latitude is text in decimal degrees
  void cairn.POST('/places/suggest/place', { params: { header: PLACES, query: { name: 'X', latitude: 48.85 } } });
  // @ts-expect-error autocomplete needs query
  void cairn.GET('/autocomplete', { params: { header: PLACES, query: { limit: 5 } } });
  // @ts-expect-error a vote is approve, reject or skip
  void cairn.POST('/places/suggest/{edit_id}/vote', { params: { header: PLACES, path: { edit_id: 'x' }, query: { vote: 'maybe' } } });
  // @ts-expect-error a zone needs its account
  void cairn.POST('/client/v4/zones', { body: { name: 'example.com' } });
  // @ts-expect-error no such path
  void cairn.GET('/places/nowhere');
}
`;

/** The same API through @hey-api/openapi-ts's SDK: one function per operation, named by its operationId. */
const HEY_API_CALLS = `
import { client } from './hey-api/client.gen';
import { placesSearch, usersManagedUserCreate, zonesCreate, zonesList } from './hey-api/sdk.gen';

export interface Given { baseUrl: string; serviceKey: string; edgeToken: string; accountId: string; placeId: string }

const PLACES = { 'x-places-api-version': '2025-06-17' } as const;
const USERS = { 'x-users-api-version': '2025-06-17' } as const;

export async function run(given: Given): Promise<string[]> {
  client.setConfig({ baseUrl: given.baseUrl, headers: { authorization: \`Bearer \${given.serviceKey}\` } });
  const search = await placesSearch({ headers: PLACES, query: { ll: '48.8566,2.3522', radius: 20000, limit: 3, sort: 'DISTANCE' } });
  const name: string | undefined = search.data?.results[0]?.name;
  const refused = await placesSearch({ headers: PLACES, query: { limit: 51 } });
  const message: string | undefined = refused.error?.message;
  const created = await usersManagedUserCreate({ headers: USERS, query: { first_name: 'Grace' } });
  const userId: number | undefined = created.data?.user_id;
  const edge = { authorization: \`Bearer \${given.edgeToken}\` };
  const zone = await zonesCreate({ headers: edge, body: { name: 'hey.example.com', account: { id: given.accountId }, type: 'full' } });
  const zones = await zonesList({ headers: edge, query: { name: 'hey.example.com' } });
  return [
    \`placesSearch \${search.response.status} \${typeof name}\`,
    \`placesSearch \${refused.response.status} \${message?.includes('limit')}\`,
    \`usersManagedUserCreate \${created.response.status} \${typeof userId}\`,
    \`zonesCreate \${zone.response.status} \${zone.data?.result?.name}\`,
    \`zonesList \${zones.response.status} \${zones.data?.result?.length}\`,
  ];
}

export function refused() {
  // @ts-expect-error limit is an integer, not text
  void placesSearch({ headers: PLACES, query: { limit: '5' } });
  // @ts-expect-error the version header is required
  void placesSearch({ query: {} });
  // @ts-expect-error a zone needs its account
  void zonesCreate({ body: { name: 'example.com' } });
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2023',
    lib: ['ES2023', 'DOM'],
    module: 'ESNext',
    moduleResolution: 'Bundler',
    allowImportingTsExtensions: true,
    noEmit: true,
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    isolatedModules: true,
    verbatimModuleSyntax: true,
    types: [],
  },
  files: ['api.ts', 'calls.ts'],
};

function typeCheck(cwd: string, project = 'tsconfig.json'): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn(TSC, ['-p', project], { cwd });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code, output }));
  });
}

/** The response schema the document gives for an answer (its status, else NXX), compiled once. */
const responseSchemas = new Map<string, ValidateFunction>();
const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
function schemaFor(method: string, path: string, status: number): ValidateFunction | string {
  const responses = spec.paths[path]?.[method]?.responses;
  if (!responses) return `${method.toUpperCase()} ${path} is not in the document`;
  const key = String(status);
  const found = responses[key] ?? responses[`${key[0]}XX`];
  const schema = found?.content?.['application/json']?.schema;
  if (!schema) return `${method.toUpperCase()} ${path} ${status} has no documented body`;
  const cacheKey = `${method} ${path} ${key}`;
  let validate = responseSchemas.get(cacheKey);
  if (!validate) {
    validate = ajv.compile(schema);
    responseSchemas.set(cacheKey, validate);
  }
  return validate;
}

describe('a client generated from /openapi.json', () => {
  it('type-checks typed calls (and refuses wrong ones), and every answer matches its documented shape', async () => {
    const ast = await openapiTS(spec as unknown as Parameters<typeof openapiTS>[0]);
    await writeFile(join(dir, 'api.ts'), astToString(ast));
    await writeFile(join(dir, 'calls.ts'), CALLS);
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    const checked = await typeCheck(dir);
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);

    const calls = (await import(pathToFileURL(join(dir, 'calls.ts')).href)) as {
      run: (
        g: typeof given,
        create: typeof createClient,
      ) => Promise<{ method: string; path: string; status: number; body: unknown }[]>;
    };
    const exchanges = await calls.run(given, createClient);
    const problems: string[] = [];
    for (const x of exchanges) {
      const validate = schemaFor(x.method, x.path, x.status);
      if (typeof validate === 'string') problems.push(validate);
      else if (!validate(x.body)) {
        for (const e of validate.errors ?? [])
          problems.push(`${x.method.toUpperCase()} ${x.path} ${x.status}: ${e.instancePath} ${e.message}`);
      }
    }
    expect(problems).toEqual([]);
    // The answers checked carry the fields whose shapes matter: a place's nested objects, each kind of suggestion.
    expect(Object.keys(exchanges[1]!.body as object)).toEqual(
      expect.arrayContaining(['categories', 'location', 'link', 'date_created']),
    );
    const suggestions = (exchanges[2]!.body as { results: { type: string }[] }).results;
    expect(new Set(suggestions.map((r) => r.type))).toContain('geo');
    expect(exchanges.map((x) => `${x.method} ${x.path} ${x.status}`)).toEqual([
      'get /places/search 200',
      'get /places/{fsq_place_id} 200',
      'get /autocomplete 200',
      'get /places/match 404',
      'get /places/{fsq_place_id}/history 200',
      'post /places/{fsq_place_id}/suggest/flag 200',
      'get /places/suggest/status 200',
      'get /places/search 400',
      'post /users/managed-user/create 200',
      'get /places/search 200',
      'post /users/managed-user/refresh-token 200',
      'get /client/v4/user/tokens/verify 200',
      'get /client/v4/accounts 200',
      'post /client/v4/zones 200',
      'get /client/v4/zones 200',
      'get /client/v4/zones/{zone_id} 200',
      'get /client/v4/zones/{zone_id}/dns_records 200',
      'get /client/v4/zones/{zone_id}/rulesets 200',
      'get /client/v4/zones/{zone_id}/firewall/rules 200',
      'get /client/v4/zones/{zone_id} 404',
    ]);
  }, 120_000);

  it('generates an SDK with @hey-api/openapi-ts whose operationId-named calls type-check and run', async () => {
    await generateHeyApiClient({
      input: spec as unknown as Record<string, unknown>,
      output: { path: join(dir, 'hey-api') },
      plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
      logs: { level: 'silent' },
    });
    await writeFile(join(dir, 'hey-calls.ts'), HEY_API_CALLS);
    await writeFile(join(dir, 'tsconfig.hey.json'), JSON.stringify({ ...TSCONFIG, files: ['hey-calls.ts'] }));
    const checked = await typeCheck(dir, 'tsconfig.hey.json');
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);
    const calls = (await import(pathToFileURL(join(dir, 'hey-calls.ts')).href)) as {
      run: (g: typeof given) => Promise<string[]>;
    };
    expect(await calls.run(given)).toEqual([
      'placesSearch 200 string',
      'placesSearch 400 true',
      'usersManagedUserCreate 200 number',
      'zonesCreate 200 hey.example.com',
      'zonesList 200 1',
    ]);
  }, 120_000);
});
