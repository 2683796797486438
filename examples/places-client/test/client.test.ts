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

/** A person's browser: keeps cookies, does not follow redirects. */
async function browse(path: string, jar: Map<string, string>, form?: Record<string, string>) {
  const res = await fetch(path.startsWith('http') ? path : `${cairn.url}${path}`, {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: {
      ...(jar.size > 0 ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  });
  for (const line of res.headers.getSetCookie()) {
    const pair = line.split(';', 1)[0] ?? '';
    const eq = pair.indexOf('=');
    jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  return { status: res.status, text: await res.text(), location: res.headers.get('location') };
}

function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(m[0])?.[1];
    const value = /value="([^"]*)"/.exec(m[0])?.[1] ?? '';
    if (name) fields[name] = value.replaceAll('&amp;', '&').replaceAll('&quot;', '"');
  }
  return fields;
}

/** The person signs in and allows the app; returns the code the app's callback receives. */
async function personAllows(app: OAuthApp): Promise<string> {
  const jar = new Map<string, string>();
  const page = await browse('/account/signin', jar);
  const signedIn = await browse('/account/signin', jar, {
    ...hiddenFields(page.text),
    email: EMAIL,
    password: PASSWORD,
  });
  expect(signedIn.status).toBe(303);
  let res = await browse(app.authorizeUrl('state-1'), jar);
  if (res.status === 200)
    res = await browse('/oauth2/authenticate', jar, { ...hiddenFields(res.text), decision: 'allow' });
  expect(res.status, res.text).toBe(303);
  const back = new URL(res.location ?? '');
  expect(back.searchParams.get('state')).toBe('state-1');
  return back.searchParams.get('code') ?? '';
}

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
  it('runs the flow: sign-in, consent, code exchange, the editor opens', async () => {
    const app = new OAuthApp({
      baseUrl: cairn.url,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUri: REDIRECT,
    });
    const accessToken = await app.exchange(await personAllows(app));
    const opened = await fetch(await app.editorUrl(accessToken), { redirect: 'manual' });
    expect(opened.status).toBe(303);
    // The exchange as the journal saw it: the secret and the code redacted.
    const [exchange] = cairn.requests.list({ path: '/oauth2/access_token' });
    expect(exchange?.status).toBe(200);
    expect(JSON.stringify(exchange?.body)).not.toContain(CLIENT_SECRET);
  });

  it('mints a new session token once the old one is past its 10 minutes', async () => {
    const app = new OAuthApp({
      baseUrl: cairn.url,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUri: REDIRECT,
      now: () => cairn.clock.nowMs(),
    });
    const accessToken = await app.exchange(await personAllows(app));
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
});
