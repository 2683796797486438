import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../src/index.ts';
import { FormClient, hiddenFields } from './form-client.ts';
import { newPerson, type OAuthFixture, REDIRECT, signedInClient, startOAuth } from './oauth-fixture.ts';

/**
 * Issue 14, finding 5: text PostgreSQL can't store reached it from identity's forms and OAuth endpoints
 * (500s). Each is now a 400 naming the parameter, in the endpoint's own shape.
 */
let f: OAuthFixture;
beforeAll(async () => {
  f = await startOAuth();
});
afterAll(async () => {
  await f.close();
});

const NUL = 'contains a NUL character (U+0000)';
const oauthBody = async (answer: Response) =>
  (await answer.json()) as { error: string; error_description: string };

describe('NUL and undecodable text on identity routes', () => {
  it('sign-up and sign-in: a page saying which field', async () => {
    const client = new FormClient(f.baseUrl);
    for (const path of ['/account/signup', '/account/signin']) {
      const page = await client.get(path);
      const answer = await client.post(path, {
        ...hiddenFields(page.text),
        email: 'a\0b@example.com',
        password: 'a long enough password',
        display_name: 'Nul',
      });
      expect(answer.status, path).toBe(400);
      expect(answer.text).toContain(`Form field email ${NUL}`);
    }
    const raw = await fetch(`${f.baseUrl}/account/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.concat([Buffer.from('email=a'), Buffer.from([0xff]), Buffer.from('%40example.com')]),
    });
    expect(raw.status).toBe(400);
    expect(await raw.text()).toContain('Form field email is not valid UTF-8: byte 0xFF');
  });

  it('the console: app name, redirect URI and key name', async () => {
    const email = await newPerson(f, 'Nia Nul');
    const client = await signedInClient(f, email);
    await addMember(f.identity.deps, f.orgId, email);
    const org = await client.get(`/console/orgs/${f.orgId}`);
    const forms: [string, Record<string, string>, string][] = [
      ['apps', { name: 'Bad\0App', redirect_uris: REDIRECT }, 'name'],
      ['apps', { name: 'Good App', redirect_uris: 'https://app.example.com/c\0b' }, 'redirect_uris'],
      ['keys', { name: 'key\0' }, 'name'],
    ];
    for (const [what, fields, field] of forms) {
      const answer = await client.post(`/console/orgs/${f.orgId}/${what}`, {
        ...hiddenFields(org.text),
        ...fields,
      });
      expect(answer.status).toBe(400);
      expect(answer.text).toContain(`Form field ${field} ${NUL}`);
    }
  });

  it('/oauth2/access_token: query, form and Basic, as RFC 6749 errors', async () => {
    const query = await fetch(
      `${f.baseUrl}/oauth2/access_token?grant_type=authorization_code&client_id=%00&code=x`,
    );
    expect(query.status).toBe(400);
    expect(await oauthBody(query)).toEqual({
      error: 'invalid_request',
      error_description: `Query parameter client_id ${NUL} at character 1; text cannot contain it`,
    });
    const form = await fetch(`${f.baseUrl}/oauth2/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=x&client_id=a%00',
    });
    expect(form.status).toBe(400);
    expect((await oauthBody(form)).error_description).toMatch(/^Form field client_id contains a NUL/);
    for (const credentials of [`%00:secret`, `${f.clientId}:%00`, 'a\0b:secret']) {
      const basic = await fetch(`${f.baseUrl}/oauth2/access_token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(credentials).toString('base64')}`,
        },
        body: 'grant_type=authorization_code&code=x',
      });
      expect(basic.status, credentials).toBe(400);
      const body = await oauthBody(basic);
      expect(body.error).toBe('invalid_request');
      expect(body.error_description).toMatch(
        /^The Basic Authorization header has a client_(id|secret) that contains a NUL/,
      );
    }
    const bytes = await fetch(`${f.baseUrl}/oauth2/access_token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from([0x61, 0xff, 0x3a, 0x62]).toString('base64')}`,
      },
      body: 'grant_type=authorization_code&code=x',
    });
    expect((await oauthBody(bytes)).error_description).toBe(
      'The Basic Authorization header decodes to text that is not valid UTF-8: byte 0xFF at offset 1',
    );
  });

  it('/oauth2/authenticate: a page, never a redirect', async () => {
    const answer = await fetch(
      `${f.baseUrl}/oauth2/authenticate?client_id=${f.clientId}&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT)}&state=%00`,
      { redirect: 'manual' },
    );
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await answer.text();
    expect(page).toContain('This sign-in link does not work');
    expect(page).toContain(`Query parameter state ${NUL}`);
  });

  it('/oauth2/revoke and /oauth2/introspect', async () => {
    for (const path of ['/oauth2/revoke', '/oauth2/introspect']) {
      const answer = await fetch(`${f.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `token=at_x&client_id=%00&client_secret=${f.clientSecret}`,
      });
      expect(answer.status, path).toBe(400);
      expect((await oauthBody(answer)).error_description).toMatch(/^Form field client_id contains a NUL/);
      const token = await fetch(`${f.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `token=%ED%A0%80&client_id=${f.clientId}&client_secret=${f.clientSecret}`,
      });
      expect(token.status, path).toBe(400);
      expect((await oauthBody(token)).error_description).toMatch(/^Form field token is not valid UTF-8/);
    }
  });
});
