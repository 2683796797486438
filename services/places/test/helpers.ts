import {
  createIdentity,
  createOrganization,
  createServiceKey,
  type Identity,
  identityMigrations,
} from '@cairn/identity';
import { createFakeClock, type FakeClock } from '@cairn/kit';
import { createTestDeps, serveOnLoopback, type TestDeps } from '@cairn/kit/testing';
import { expect } from 'vitest';
import {
  type City,
  createPlaces,
  gazetteer,
  generatePlaces,
  type PlaceRecord,
  type Places,
  type PlacesConfig,
  placesMigrations,
} from '../src/index.ts';

export interface PlacesFixture {
  deps: TestDeps;
  clock: FakeClock;
  identity: Identity;
  places: Places;
  baseUrl: string;
  orgId: string;
  serviceKey: string;
  close(): Promise<void>;
}

export const TEST_CITIES = ['Paris, FR', 'Suva, FJ'];

export function testCities(): City[] {
  return TEST_CITIES.map((name) => gazetteer().resolve(name)!);
}

/**
 * Identity and places on a fresh database, served on loopback, with an organization and its service key, and
 * `count` generated places around Paris and Suva (which sits near the antimeridian).
 */
export async function startPlaces(
  options: {
    count?: number;
    seed?: string;
    config?: Partial<PlacesConfig>;
    env?: Record<string, string>;
  } = {},
): Promise<PlacesFixture> {
  const clock = createFakeClock(Date.UTC(2025, 5, 17, 10, 0, 0)); // a Tuesday
  const deps = await createTestDeps([...identityMigrations, ...placesMigrations], {
    clock,
    env: options.env ?? {},
  });
  const identity = createIdentity(deps);
  await identity.start();
  const places = createPlaces(deps, {
    authenticate: identity.authenticate,
    config: { rateLimit: 100_000, rateBurst: 100_000, demoCount: 0, ...options.config },
  });
  await places.start();
  if ((options.count ?? 0) > 0) {
    await generatePlaces(deps.db, {
      count: options.count!,
      seed: options.seed ?? 'test',
      cities: testCities(),
    });
  }
  const server = await serveOnLoopback(deps, [identity.module, places.module]);
  const org = await createOrganization(identity.deps, 'Acme');
  const { secret } = await createServiceKey(identity.deps, { organizationId: org.id });
  return {
    deps,
    clock,
    identity,
    places,
    baseUrl: server.baseUrl,
    orgId: org.id,
    serviceKey: secret,
    async close() {
      await server.close();
      await places.stop();
      await identity.stop();
      await deps.db.close();
    },
  };
}

export interface CallOptions {
  token?: string | null;
  version?: string | null;
}

export async function callPlaces(f: PlacesFixture, pathAndQuery: string, options: CallOptions = {}) {
  const headers: Record<string, string> = {};
  const token = options.token === undefined ? f.serviceKey : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (options.version !== null) headers['x-places-api-version'] = options.version ?? '2025-06-17';
  // Links carry PUBLIC_URL; the test server listens on another port.
  const url = pathAndQuery.startsWith('http')
    ? f.baseUrl + new URL(pathAndQuery).pathname + new URL(pathAndQuery).search
    : `${f.baseUrl}${pathAndQuery}`;
  const response = await fetch(url, { headers });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return {
    status: response.status,
    headers: response.headers,
    body: body as Record<string, unknown> & { results?: Record<string, unknown>[] },
  };
}

/** The URL of the next page from a Link header, or undefined. */
export function nextPage(headers: Headers): string | undefined {
  const link = headers.get('link');
  return link ? /^<([^>]+)>; rel="next"$/.exec(link)?.[1] : undefined;
}

/** The ids of every page of a search, following the `next` links (at most 100 pages). */
export async function everyPage(f: PlacesFixture, first: string): Promise<string[]> {
  const ids: string[] = [];
  let url: string | undefined = first;
  for (let pages = 0; url && pages < 100; pages++) {
    const res = await callPlaces(f, url);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(...res.body.results!.map((r) => r.fsq_place_id as string));
    url = nextPage(res.headers);
  }
  return ids;
}

/** A place with an id, a name and a point, nothing else known: for tests that write their own places. */
export function bareRecord(id: string, name: string, latitude: number, longitude: number): PlaceRecord {
  return {
    fsq_place_id: id,
    name,
    latitude,
    longitude,
    address: null,
    locality: null,
    region: null,
    postcode: null,
    admin_region: null,
    post_town: null,
    po_box: null,
    country: null,
    date_created: null,
    date_refreshed: null,
    date_closed: null,
    tel: null,
    website: null,
    email: null,
    facebook_id: null,
    instagram: null,
    twitter: null,
    fsq_category_ids: [],
    fsq_category_labels: [],
    placemaker_url: null,
    unresolved_flags: [],
    fsq_chain_ids: [],
    price: null,
    rating: null,
    popularity: null,
    hours: null,
    time_zone: null,
  };
}
