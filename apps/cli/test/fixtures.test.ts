import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { edgeMigrations, findZoneByName, getEntrypoint, wafSettingOn } from '@cairn/edge';
import { authenticateClient, identityMigrations, listOrganizations } from '@cairn/identity';
import { createTestDeps, serveOnLoopback, type TestDeps, tempDirs } from '@cairn/kit/testing';
import { placesMigrations } from '@cairn/places';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FixtureError, parseFixtures } from '../src/fixtures.ts';
import { runCommand } from '../src/index.ts';
import { composeServices, type Runtime, type Services } from '../src/runtime.ts';

const KEY = `svk_${'k'.repeat(43)}`;
const OTHER_KEY = `svk_${'o'.repeat(43)}`;
const CLIENT_ID = 'C'.repeat(48);
const CLIENT_SECRET = `cs_${'s'.repeat(43)}`;
const PLACE_ID = '0123456789abcdef01234567';
const ACCESS_TOKEN = `at_${'t'.repeat(43)}`;

const GOOD = `# a complete fixture
organizations:
  - name: Trail Co
    service_keys:
      - name: ci
        value: ${KEY}
    apps:
      - name: Trailfinder
        client_id: ${CLIENT_ID}
        client_secret: ${CLIENT_SECRET}
        redirect_uris: [https://app.example.com/callback]
    managed_users:
      - first_name: Ada
        last_name: Lovelace
  - name: Other Co
    service_keys:
      - value: ${OTHER_KEY}
accounts:
  - email: walker@example.com
    display_name: Wanda Walker
    password: a long password 1
access_tokens:
  - { app: Trailfinder, person: walker@example.com, placemaker: true, value: ${ACCESS_TOKEN} }
places:
  generate: { seed: fixtures, count: 20 }
  items:
    - fsq_place_id: ${PLACE_ID}
      name: Fixture Coffee
      latitude: 51.5
      longitude: -0.12
edge:
  zones:
    - name: shop.example.com
      plan: business
      origin: http://127.0.0.1:9
      settings: { waf: "on", security_level: high }
      rulesets:
        http_request_firewall_custom:
          rules:
            - expression: http.request.uri.path eq "/admin"
              action: block
              description: no admin
  dashboard_users:
    - email: ops@example.com
      password: a long password 1
`;

const dirs = tempDirs('cairn-fixtures');
afterAll(() => dirs.removeAll());

let deps: TestDeps;
let services: Services;
let runtime: Runtime;
beforeEach(async () => {
  deps = await createTestDeps([...identityMigrations, ...placesMigrations, ...edgeMigrations]);
  services = composeServices(deps, { PLACES_DEMO_COUNT: '0' });
  runtime = { ...services, deps, services: services.modules, close: async () => {} };
});
afterEach(async () => {
  await services.places.stop();
  await deps.db.close();
});

function fixtureFile(text: string): string {
  const file = join(dirs.make(), 'cairn.yaml');
  writeFileSync(file, text);
  return file;
}

async function counts() {
  const { rows } = await deps.db.query<{ orgs: number; apps: number; zones: number; people: number }>(
    `SELECT (SELECT count(*)::int FROM organizations) AS orgs, (SELECT count(*)::int FROM apps) AS apps,
            (SELECT count(*)::int FROM edge_zones) AS zones, (SELECT count(*)::int FROM accounts) AS people`,
  );
  return rows[0]!;
}

describe('cairn fixtures load', () => {
  it('applies a complete fixture through the services: keys, apps, users, accounts, places, zones', async () => {
    const file = fixtureFile(GOOD);
    const result = await runCommand(['fixtures', 'load', file, '--json'], runtime);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      organizations: 2,
      serviceKeys: 2,
      apps: 1,
      managedUsers: 1,
      accounts: 1,
      accessTokens: 1,
      places: 21,
      zones: 1,
      dashboardUsers: 1,
    });
    expect((await listOrganizations(deps.db)).map((o) => o.name).sort()).toEqual(['Other Co', 'Trail Co']);
    // The app has the given client id and secret.
    expect((await authenticateClient(services.identity.deps, CLIENT_ID, CLIENT_SECRET))?.name).toBe(
      'Trailfinder',
    );
    // The given service key is accepted by the API, the place given is found.
    await services.identity.start();
    await services.places.start();
    const server = await serveOnLoopback(deps, services.modules);
    try {
      const found = await fetch(`${server.baseUrl}/places/${PLACE_ID}`, {
        headers: { authorization: `Bearer ${KEY}`, 'x-places-api-version': '2025-06-17' },
      });
      expect(found.status).toBe(200);
      expect(((await found.json()) as { name: string }).name).toBe('Fixture Coffee');
      // The person's access token, made through the OAuth flow with the placemaker permission, opens a session.
      const session = await fetch(`${server.baseUrl}/auth/session-token`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${ACCESS_TOKEN}`,
          'x-users-api-version': '2025-06-17',
          accept: 'application/json',
        },
      });
      expect(session.status).toBe(200);
    } finally {
      await server.close();
      await services.identity.stop();
    }
    const zone = await findZoneByName(deps.db, 'shop.example.com');
    expect(zone?.plan).toBe('business');
    expect(await wafSettingOn(deps.db, zone!.id)).toBe(true);
    const custom = await getEntrypoint(services.edge.deps, zone!, 'http_request_firewall_custom');
    expect(custom.rules).toHaveLength(1);
  });

  it('refuses a file whose shape is wrong, naming the file, line and field of every problem', async () => {
    const file = fixtureFile(`organizations:
  - name: Trail Co
    colour: blue
    apps:
      - name: Trailfinder
accounts:
  - email: a@example.com
    display_name: 7
    password: a long password 1
edge:
  zones:
    - name: shop.example.com
      plan: platinum
`);
    const result = await runCommand(['fixtures', 'load', file], runtime);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('nothing was applied');
    expect(result.stderr).toContain(`${file}:3: organizations[0].colour: is not a field here`);
    expect(result.stderr).toContain(`${file}:5: organizations[0].apps[0].redirect_uris: is required`);
    expect(result.stderr).toMatch(new RegExp(`${file}:8: accounts\\[0\\]\\.display_name: `));
    expect(result.stderr).toMatch(new RegExp(`${file}:13: edge\\.zones\\[0\\]\\.plan: `));
    expect(await counts()).toEqual({ orgs: 0, apps: 0, zones: 0, people: 0 });
  });

  it('refuses values the services would refuse before writing anything', async () => {
    expect(() =>
      parseFixtures(
        `organizations:
  - name: A
    service_keys:
      - value: not-a-key
    apps:
      - name: App
        client_id: short
        redirect_uris: [https://a.example/cb]
  - name: A
places:
  items:
    - fsq_place_id: nothex
      name: X
      latitude: 1
      longitude: 2
edge:
  zones:
    - name: z.example
      plan: free
      settings: { waf: maybe }
access_tokens:
  - { app: Nowhere, person: nobody@example.com, value: at_short }
`,
        'f.yaml',
      ),
    ).toThrowError(
      expect.objectContaining({
        problems: expect.arrayContaining([
          expect.objectContaining({ line: 4, field: 'organizations[0].service_keys[0].value' }),
          expect.objectContaining({ line: 7, field: 'organizations[0].apps[0].client_id' }),
          expect.objectContaining({ line: 9, field: 'organizations[1].name' }),
          expect.objectContaining({ line: 12, field: 'places.items[0]' }),
          expect.objectContaining({ line: 20, field: 'edge.zones[0].settings.waf' }),
          expect.objectContaining({ line: 22, field: 'access_tokens[0].value' }),
          expect.objectContaining({ line: 22, field: 'access_tokens[0].app' }),
          expect.objectContaining({ line: 22, field: 'access_tokens[0].person' }),
        ]),
      }),
    );
    // Not YAML at all.
    expect(() => parseFixtures('organizations: [\n', 'g.yaml')).toThrow(FixtureError);
    expect(() => parseFixtures('organizations: [\n', 'g.yaml')).toThrow(/g\.yaml:1: \(top\): not YAML/);
  });

  it('rolls everything back when a service refuses an entry, and names it', async () => {
    const file = fixtureFile(`organizations:
  - name: Trail Co
    service_keys:
      - value: ${KEY}
  - name: Second Co
    apps:
      - name: Bad redirect
        redirect_uris: ["ftp://nowhere.example/cb"]
`);
    const result = await runCommand(['fixtures', 'load', file], runtime);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${file}:7: organizations[1].apps[0]:`);
    expect(await counts()).toEqual({ orgs: 0, apps: 0, zones: 0, people: 0 });
  });

  it('makes access tokens only through the flow: an unregistered redirect URI rolls everything back', async () => {
    const file = fixtureFile(`organizations:
  - name: Trail Co
    apps:
      - name: Trailfinder
        redirect_uris: [https://app.example.com/callback]
accounts:
  - { email: walker@example.com, display_name: Wanda Walker, password: a long password 1 }
access_tokens:
  - app: Trailfinder
    person: walker@example.com
    redirect_uri: https://elsewhere.example.com/callback
    value: ${ACCESS_TOKEN}
`);
    const result = await runCommand(['fixtures', 'load', file], runtime);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${file}:9: access_tokens[0]: authorization request: The redirect_uri`);
    expect(await counts()).toEqual({ orgs: 0, apps: 0, zones: 0, people: 0 });
  });

  it('generates 50,000 places (a bulk load) inside its transaction, from a seed with a NUL and non-ASCII text', async () => {
    // From 50,000 places a generation loads by COPY; inside the fixtures' transaction it uses that one
    // connection and leaves VACUUM (which cannot run in a transaction) to autovacuum.
    const file = fixtureFile(`places:
  generate: { seed: "nul\\0 é 🧭", count: 50000 }
`);
    const result = await runCommand(['fixtures', 'load', file, '--json'], runtime);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ places: 50_000 });
    const { rows } = await deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM places');
    expect(rows[0]!.n).toBe(50_000);
  }, 120_000);

  it('says which argument is missing', async () => {
    const result = await runCommand(['fixtures', 'load'], runtime);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('give exactly one fixture file');
  });
});
