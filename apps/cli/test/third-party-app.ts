import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';

/**
 * A minimal integrating web app, as the seed describes one: it sends people to the authorization server
 * with mode=placemaker, exchanges the code server-side, asks the users API for a session token with the
 * person's access token, and opens the editor with it.
 */
export async function startThirdPartyApp(input: {
  cairnUrl: string;
  clientId: string;
  clientSecret: string;
  port: number;
}): Promise<{ server: Server; url: string; tokens: Map<string, string> }> {
  const url = `http://127.0.0.1:${input.port}`;
  const redirectUri = `${url}/callback`;
  const states = new Set<string>();
  /** Access tokens by the display name shown in the callback, so tests can call the places API as a person. */
  const tokens = new Map<string, string>();

  const server = createServer((req, res) => {
    void (async () => {
      const here = new URL(req.url!, url);
      if (here.pathname === '/edit-places') {
        const state = randomBytes(16).toString('base64url');
        states.add(state);
        const authorize = new URL('/oauth2/authenticate', input.cairnUrl);
        authorize.search = new URLSearchParams({
          client_id: input.clientId,
          response_type: 'code',
          redirect_uri: redirectUri,
          mode: 'placemaker',
          state,
        }).toString();
        res.writeHead(302, { location: authorize.toString() }).end();
        return;
      }
      if (here.pathname === '/callback') {
        const state = here.searchParams.get('state') ?? '';
        if (!states.delete(state)) throw new Error('unexpected state');
        const exchange = await fetch(`${input.cairnUrl}/oauth2/access_token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            client_id: input.clientId,
            client_secret: input.clientSecret,
            grant_type: 'authorization_code',
            redirect_uri: redirectUri,
            code: here.searchParams.get('code') ?? '',
          }),
        });
        const { access_token } = (await exchange.json()) as { access_token: string };
        const session = await fetch(`${input.cairnUrl}/auth/session-token`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${access_token}`,
            'x-users-api-version': '2025-06-17',
            accept: 'application/json',
          },
        });
        const { session_token } = (await session.json()) as { session_token: string };
        tokens.set(String(tokens.size + 1), access_token);
        res
          .writeHead(302, { location: `${input.cairnUrl}/placemakers/home?session_token=${session_token}` })
          .end();
        return;
      }
      res.writeHead(404).end();
    })().catch((error: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(error.message));
  });
  await new Promise<void>((resolve) => server.listen(input.port, '127.0.0.1', resolve));
  return { server, url, tokens };
}
