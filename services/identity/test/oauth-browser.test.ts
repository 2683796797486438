import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '@cairn/kit/testing';
import { launchBrowser, screenshotPath } from '@cairn/kit/testing-browser';
import * as oauth from 'oauth4webapi';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerApp } from '../src/index.ts';
import { type IdentityFixture, startIdentity } from './helpers.ts';

/**
 * A third-party web app written against oauth4webapi (authorization code + PKCE S256 + state + iss check),
 * with nothing Cairn-specific in it: it discovers the server from its RFC 8414 metadata.
 */
function thirdPartyApp(issuer: string, clientId: string, clientSecret: string, port: number) {
  const redirectUri = `http://127.0.0.1:${port}/callback`;
  const client: oauth.Client = { client_id: clientId };
  const clientAuth = oauth.ClientSecretBasic(clientSecret);
  const insecure = { [oauth.allowInsecureRequests]: true }; // loopback http in the test
  let as: oauth.AuthorizationServer | undefined;
  const pending = new Map<string, string>(); // state → code_verifier
  const result: { accessToken?: string; sessionStatus?: number } = {};

  const server = createServer((req, res) => {
    void (async () => {
      as ??= await oauth.processDiscoveryResponse(
        new URL(issuer),
        await oauth.discoveryRequest(new URL(issuer), { algorithm: 'oauth2', ...insecure }),
      );
      const url = new URL(req.url!, redirectUri);
      if (url.pathname === '/login') {
        const verifier = oauth.generateRandomCodeVerifier();
        const state = oauth.generateRandomState();
        pending.set(state, verifier);
        const authorize = new URL(as.authorization_endpoint!);
        authorize.search = new URLSearchParams({
          client_id: clientId,
          response_type: 'code',
          redirect_uri: redirectUri,
          state,
          code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          mode: 'placemaker', // the app opens the embedded editor, so it asks for the placemaker permission
        }).toString();
        res.writeHead(302, { location: authorize.toString() }).end();
        return;
      }
      if (url.pathname === '/callback') {
        const state = url.searchParams.get('state') ?? '';
        const verifier = pending.get(state);
        if (!verifier) throw new Error('unknown state');
        const params = oauth.validateAuthResponse(as, client, url, state); // checks state and iss
        const response = await oauth.authorizationCodeGrantRequest(
          as,
          client,
          clientAuth,
          params,
          redirectUri,
          verifier,
          insecure,
        );
        const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
        result.accessToken = tokens.access_token;
        const session = await fetch(`${issuer}/auth/session-token`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${tokens.access_token}`,
            'x-users-api-version': '2025-06-17',
            accept: 'application/json',
          },
        });
        result.sessionStatus = session.status;
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<h1 id="done">Connected to Cairn (token type ${tokens.token_type})</h1>`);
        return;
      }
      res.writeHead(404).end();
    })().catch((error: Error) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`client error: ${error.message}`);
    });
  });
  return { server, result, redirectUri };
}

describe('a real OAuth client and a real browser', () => {
  let f: IdentityFixture;
  let browser: Browser;
  let app: ReturnType<typeof thirdPartyApp>;
  let appServer: Server;
  let appUrl: string;

  beforeAll(async () => {
    f = await startIdentity({}, { clockStart: Date.now() });
    browser = await launchBrowser();
    const port = await freePort();
    const registered = await registerApp(f.identity.deps, {
      organizationId: f.orgId,
      name: 'Hikers Log',
      redirectUris: [`http://127.0.0.1:${port}/callback`],
    });
    app = thirdPartyApp(f.deps.config.publicUrl, registered.app.clientId, registered.clientSecret, port);
    appServer = app.server;
    await new Promise<void>((resolve) => appServer.listen(port, '127.0.0.1', resolve));
    appUrl = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    appServer?.close();
    await f?.close();
  });

  it('signs up, consents, and the app gets a token it can use; disconnecting it revokes the token', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } }); // a phone-sized screen
    await page.goto(`${appUrl}/login`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/account/signin');
    expect(await page.textContent('main')).toContain('Hikers Log asks you to sign in');
    await page.click('text=Create one');
    await page.fill('#display_name', 'Hana Hiker');
    await page.fill('#email', 'hana@example.com');
    await page.fill('#password', 'mountain trails 2025');
    await page.screenshot({ path: screenshotPath('identity-signup') });
    await page.click('button[type=submit]');

    await page.waitForSelector('text=Connect Hikers Log to your account?');
    await page.screenshot({ path: screenshotPath('identity-consent') });
    // Keyboard only: Tab to "Allow" and press Enter.
    await page.focus('button[value=allow]');
    await page.keyboard.press('Enter');

    await page.waitForSelector('#done');
    expect(await page.textContent('#done')).toBe('Connected to Cairn (token type bearer)');
    expect(app.result.accessToken).toMatch(/^at_/);
    expect(app.result.sessionStatus).toBe(200);
    expect(await f.identity.resolveBearer(app.result.accessToken!)).toMatchObject({
      kind: 'oauth_user',
    });

    await page.goto(`${f.baseUrl}/account/apps`);
    await page.screenshot({ path: screenshotPath('identity-connected-apps') });
    await page.click('button[aria-label="Disconnect Hikers Log"]');
    await page.waitForSelector('text=Disconnected Hikers Log');
    await expect(f.identity.resolveBearer(app.result.accessToken!)).rejects.toMatchObject({ status: 401 });
    await page.close();
  }, 60_000);
});
