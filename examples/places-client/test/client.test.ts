import { type Cairn, startCairn } from 'cairn/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OAuthApp, PlacesClient } from '../src/client.ts';

const KEY = `svk_${'E'.repeat(43)}`;
const CLIENT_ID = 'EXAMPLEAPP'.padEnd(48, '0');
const CLIENT_SECRET = `cs_${'x'.repeat(43)}`;
const REDIRECT = 'https://app.example.com/callback';
const EMAIL = 'walker@example.com';
const PASSWORD = 'a long password 1';

let cairn: Cairn;
beforeAll(async () => {
  cairn = await startCairn({
    places: 300,
    fixtures: {
      organizations: [
        {
          name: 'Example Co',
          service_keys: [{ name: 'example', value: KEY }],
          apps: [
            {
              name: 'Example app',
              client_id: CLIENT_ID,
              client_secret: CLIENT_SECRET,
              redirect_uris: [REDIRECT],
            },
          ],
        },
      ],
      accounts: [{ email: EMAIL, display_name: 'Wanda Walker', password: PASSWORD }],
    },
  });
}, 600_000);
afterAll(async () => {
  await cairn?.stop();
});
// A snapshot per test: each starts from the same state, whatever the one before did.
beforeEach(async () => {
  await cairn.snapshot('each-test');
});
afterEach(async () => {
  await cairn.restore('each-test');
  cairn.faults.clear();
  cairn.requests.clear();
});

const APP = { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET };
const PERSON = { email: EMAIL, password: PASSWORD };

describe('PlacesClient', () => {
  it('waits the Retry-After of a 429 and retries', async () => {
    cairn.faults.add({ route: '/places/search', status: 429, retryAfter: 2, times: 1 });
    const waits: number[] = [];
    const client = new PlacesClient({
      baseUrl: cairn.url,
      serviceKey: KEY,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const places = await client.search('coffee');
    expect(places.length).toBeGreaterThan(0);
    expect(waits).toEqual([2000]);
    // The journal shows what the app sent: twice the same search, the key redacted.
    const calls = cairn.requests.list({ path: '/places/search' });
    expect(calls.map((c) => c.status)).toEqual([429, 200]);
    for (const call of calls) {
      expect(call.method).toBe('GET');
      expect(call.query.query).toBe('coffee');
      expect(String(call.query.limit)).toBe('5');
      expect(call.headers['x-places-api-version']).toBe('2025-06-17');
      expect(call.headers.authorization).not.toContain(KEY);
    }
  });

  it('gives up after its retries', async () => {
    cairn.faults.add({ route: '/places/search', status: 429, retryAfter: 1 });
    const client = new PlacesClient({
      baseUrl: cairn.url,
      serviceKey: KEY,
      maxRetries: 2,
      sleep: async () => {},
    });
    await expect(client.search('tea')).rejects.toThrow(/429/);
    expect(cairn.requests.list({ path: '/places/search' })).toHaveLength(3);
  });
});

describe('OAuthApp', () => {
  const oauthApp = (now?: () => number) =>
    new OAuthApp({
      baseUrl: cairn.url,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUri: REDIRECT,
      ...(now ? { now } : {}),
    });

  it('sends the person to an authorization request Cairn accepts', async () => {
    // A valid request sends a person who is not signed in to the sign-in page (an invalid one is a 400 page).
    const res = await fetch(oauthApp().authorizeUrl('state-1'), { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/account\/signin\?return_to=/);
  });

  it('reports a refused code exchange, and never sends the secret where the journal shows it', async () => {
    await expect(oauthApp().exchange('not-a-code')).rejects.toThrow(/400.*invalid_grant/);
    const [exchange] = cairn.requests.list({ path: '/oauth2/access_token' });
    expect(exchange?.status).toBe(400);
    expect(JSON.stringify(exchange?.body)).not.toContain(CLIENT_SECRET);
  });

  it("fills the person's profile and opens the editor with their access token", async () => {
    // The person's token from Cairn's own OAuth flow (sign-in, consent with the placemaker permission, code).
    const person = await cairn.userAccessToken({ app: APP, person: PERSON, placemaker: true });
    expect(OAuthApp.canEdit(person.scope)).toBe(true);
    const app = oauthApp();
    expect(await app.profile(person.accessToken)).toEqual({
      id: String(person.userId),
      name: 'Wanda Walker',
    });
    const opened = await fetch(await app.editorUrl(person.accessToken), { redirect: 'manual' });
    expect(opened.status).toBe(303);
  });

  it('does not offer the editor without the placemaker permission', async () => {
    const person = await cairn.userAccessToken({ app: APP, person: PERSON });
    expect(OAuthApp.canEdit(person.scope)).toBe(false);
    await expect(oauthApp().editorUrl(person.accessToken)).rejects.toThrow(/403/);
  });

  it('mints a new session token once the old one is past its 10 minutes', async () => {
    const { accessToken } = await cairn.userAccessToken({ app: APP, person: PERSON, placemaker: true });
    const app = oauthApp(() => cairn.clock.nowMs());
    const old = await app.editorUrl(accessToken);
    cairn.clock.advance('10m1s');
    const refused = await fetch(old, { redirect: 'manual' });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(await refused.text()).toMatch(/expired/);
    const fresh = await app.editorUrl(accessToken);
    expect(fresh).not.toBe(old);
    expect((await fetch(fresh, { redirect: 'manual' })).status).toBe(303);
    expect(cairn.requests.list({ path: '/auth/session-token' })).toHaveLength(2);
  });

  it('a session token straight from Cairn opens the editor (for tests of the editor side alone)', async () => {
    const session = await cairn.sessionToken({ app: APP, person: PERSON });
    expect((await fetch(session.editorUrl, { redirect: 'manual' })).status).toBe(303);
    expect((await fetch(session.editorUrl, { redirect: 'manual' })).status).toBe(410);
  });
});
