import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormClient } from './form-client.ts';
import { type OAuthFixture, REDIRECT, signedInClient, startOAuth } from './oauth-fixture.ts';

let f: OAuthFixture;
let client: FormClient;
beforeAll(async () => {
  f = await startOAuth();
  client = await signedInClient(f);
});
afterAll(async () => {
  await f.close();
});

const OAUTH_ERRORS = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'unsupported_response_type',
  'access_denied',
]);

const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '',
    'code',
    'token',
    'S256',
    'plain',
    'placemaker',
    'authorization_code',
    '%',
    '%00',
    'ac_x',
    'javascript:alert(1)',
  ),
);

function paramArbitrary(names: string[], known: () => Record<string, string>) {
  return fc
    .array(
      fc.tuple(
        fc.constantFrom(...names, 'x', ''),
        fc.oneof(
          text,
          fc.constant('KNOWN'), // replaced by a valid value for that name
        ),
      ),
      { maxLength: 8 },
    )
    .map((pairs) => {
      const params = new URLSearchParams();
      for (const [name, value] of pairs)
        params.append(name, value === 'KNOWN' ? (known()[name] ?? '') : value);
      return params;
    });
}

describe('the OAuth endpoints under random parameters', () => {
  it('authorization: a page (4xx) before the redirect is trusted, otherwise a redirect to the registered URI only', async () => {
    const names = [
      'client_id',
      'response_type',
      'redirect_uri',
      'state',
      'code_challenge',
      'code_challenge_method',
      'mode',
    ];
    const known = () => ({
      client_id: f.clientId,
      response_type: 'code',
      redirect_uri: REDIRECT,
      code_challenge_method: 'S256',
      code_challenge: 'A'.repeat(43),
      mode: 'placemaker',
    });
    await fc.assert(
      fc.asyncProperty(paramArbitrary(names, known), async (params) => {
        const res = await client.get(`/oauth2/authenticate?${params}`);
        expect(res.status).toBeLessThan(500);
        if (res.status === 303) {
          const target = new URL(res.location!, f.baseUrl);
          const here = new URL(f.baseUrl);
          const toRegistered = `${target.origin}${target.pathname}` === REDIRECT;
          const toOurSignIn = target.origin === here.origin && target.pathname === '/account/signin';
          expect(toRegistered || toOurSignIn, res.location!).toBe(true);
          if (toRegistered) {
            const error = target.searchParams.get('error');
            expect(error === null ? target.searchParams.get('code') : OAUTH_ERRORS.has(error)).toBeTruthy();
          }
        } else {
          expect([200, 400]).toContain(res.status);
          expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('token: 200 with a token or an RFC 6749 §5.2 error body — never a 5xx', async () => {
    const names = ['client_id', 'client_secret', 'grant_type', 'redirect_uri', 'code', 'code_verifier'];
    const known = () => ({
      client_id: f.clientId,
      client_secret: f.clientSecret,
      grant_type: 'authorization_code',
      redirect_uri: REDIRECT,
    });
    await fc.assert(
      fc.asyncProperty(
        paramArbitrary(names, known),
        fc.constantFrom('GET', 'POST-form', 'POST-json', 'POST-text'),
        fc.option(fc.string({ maxLength: 40 }).map((s) => `Basic ${Buffer.from(s).toString('base64')}`)),
        async (params, how, authorization) => {
          const headers: Record<string, string> = authorization ? { authorization } : {};
          let res: Response;
          if (how === 'GET') {
            res = await fetch(`${f.baseUrl}/oauth2/access_token?${params}`, { headers });
          } else {
            const [type, body] =
              how === 'POST-form'
                ? ['application/x-www-form-urlencoded', params.toString()]
                : how === 'POST-json'
                  ? ['application/json', JSON.stringify(Object.fromEntries(params))]
                  : ['text/plain', params.toString()];
            res = await fetch(`${f.baseUrl}/oauth2/access_token`, {
              method: 'POST',
              headers: { ...headers, 'content-type': type },
              body,
            });
          }
          expect(res.status).toBeLessThan(500);
          const body = (await res.json()) as Record<string, unknown>;
          if (res.status === 200) {
            expect(body.token_type).toBe('Bearer');
          } else {
            expect(OAUTH_ERRORS.has(body.error as string), JSON.stringify(body)).toBe(true);
            expect(typeof body.error_description).toBe('string');
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
