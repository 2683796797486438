import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createServiceKey, revokeServiceKey } from '../src/index.ts';
import { callUsersApi, type IdentityFixture, startIdentity } from './helpers.ts';

let f: IdentityFixture;
beforeAll(async () => {
  f = await startIdentity();
});
afterAll(async () => {
  await f.close();
});

const create = (query = '', token: string | undefined = f.serviceKey) =>
  callUsersApi(f.baseUrl, `/users/managed-user/create${query}`, { token });

describe('POST /users/managed-user/create', () => {
  it('returns user_id (integer) and access_token', async () => {
    const res = await create('?first_name=Ada&last_name=Lovelace');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'user_id']);
    expect(Number.isInteger(res.body.user_id)).toBe(true);
    expect(res.body.access_token).toMatch(/^mu_[A-Za-z0-9_-]{43}$/);
    const stored = await f.deps.db.query(
      'SELECT first_name, last_name, organization_id FROM users WHERE id = $1',
      [res.body.user_id],
    );
    expect(stored.rows).toEqual([{ first_name: 'Ada', last_name: 'Lovelace', organization_id: f.orgId }]);
  });

  it('names are optional', async () => {
    const res = await create();
    expect(res.status).toBe(200);
  });

  it('the managed user token resolves to a managed_user context of the organization', async () => {
    const res = await create('?first_name=Grace');
    const auth = await f.identity.resolveBearer(res.body.access_token as string);
    expect(auth).toMatchObject({ kind: 'managed_user', organizationId: f.orgId, userId: res.body.user_id });
  });

  it('stores only hashes of tokens', async () => {
    const res = await create();
    const token = res.body.access_token as string;
    const dump = JSON.stringify((await f.deps.db.query('SELECT * FROM access_tokens')).rows);
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(f.serviceKey);
  });

  it.each([
    ['?first_name=' + 'x'.repeat(101), /first_name must be text of at most 100 characters/],
    ['?last_name=' + 'y'.repeat(101), /last_name must be text of at most 100 characters/],
    ['?first_name=a%00b', /^Query parameter first_name contains a NUL character/],
    ['?first_name=tab%09in', /first_name must be text/],
    ['?first_name=a&first_name=b', /first_name must be text .* given once/],
  ])('refuses bad names %s with 400', async (query, message) => {
    const res = await create(query);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it('accepts names of exactly 100 characters and non-ASCII text', async () => {
    expect((await create(`?first_name=${'x'.repeat(100)}`)).status).toBe(200);
    expect((await create(`?first_name=${encodeURIComponent('Zoë 李')}`)).status).toBe(200);
  });
});

describe('POST /users/managed-user/refresh-token', () => {
  it('returns a new token, and the previous one is refused from the next request on', async () => {
    const created = await create('?first_name=Old');
    const oldToken = created.body.access_token as string;
    await f.identity.resolveBearer(oldToken); // cached now
    const res = await callUsersApi(
      f.baseUrl,
      `/users/managed-user/refresh-token?target_user_id=${created.body.user_id}`,
      {
        token: f.serviceKey,
      },
    );
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['access_token']);
    expect(res.body.access_token).not.toBe(oldToken);
    await expect(f.identity.resolveBearer(oldToken)).rejects.toMatchObject({ status: 401 });
    expect(await f.identity.resolveBearer(res.body.access_token as string)).toMatchObject({
      userId: created.body.user_id,
    });
  });

  it.each([
    ['', 'Query parameter target_user_id is required'],
    ['?target_user_id=abc', 'Query parameter target_user_id must be a positive integer'],
    ['?target_user_id=1.5', 'Query parameter target_user_id must be a positive integer'],
    ['?target_user_id=-3', 'Query parameter target_user_id must be a positive integer'],
    ['?target_user_id=0', 'Query parameter target_user_id must be a positive integer'],
    ['?target_user_id=99999999999999999999', 'Query parameter target_user_id must be a positive integer'],
    ['?target_user_id=1&target_user_id=2', 'Query parameter target_user_id must be a positive integer'],
  ])('refuses target_user_id %s with 400', async (query, message) => {
    const res = await callUsersApi(f.baseUrl, `/users/managed-user/refresh-token${query}`, {
      token: f.serviceKey,
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
  });

  it('answers 404 for an unknown user', async () => {
    const res = await callUsersApi(f.baseUrl, '/users/managed-user/refresh-token?target_user_id=424242', {
      token: f.serviceKey,
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('No managed user with target_user_id 424242 in your organization');
  });

  it("answers another organization's user exactly like an unknown one (404)", async () => {
    const other = await createOrganization(f.identity.deps, 'Other Corp');
    const { secret } = await createServiceKey(f.identity.deps, { organizationId: other.id });
    const theirs = await create('?first_name=Theirs', secret);
    const res = await callUsersApi(
      f.baseUrl,
      `/users/managed-user/refresh-token?target_user_id=${theirs.body.user_id}`,
      {
        token: f.serviceKey,
      },
    );
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(
      `No managed user with target_user_id ${theirs.body.user_id} in your organization`,
    );
    // and their token still works: nothing was changed
    expect(await f.identity.resolveBearer(theirs.body.access_token as string)).toBeTruthy();
  });
});

describe('POST /users/managed-user/delete', () => {
  it('deletes the user and revokes every token of it', async () => {
    const created = await create('?first_name=Gone');
    const token = created.body.access_token as string;
    const res = await callUsersApi(
      f.baseUrl,
      `/users/managed-user/delete?target_user_id=${created.body.user_id}`,
      {
        token: f.serviceKey,
      },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user_id: created.body.user_id, deleted: true });
    await expect(f.identity.resolveBearer(token)).rejects.toMatchObject({ status: 401 });
    const again = await callUsersApi(
      f.baseUrl,
      `/users/managed-user/refresh-token?target_user_id=${created.body.user_id}`,
      {
        token: f.serviceKey,
      },
    );
    expect(again.status).toBe(404);
  });
});

describe('headers and credentials', () => {
  it('requires X-Users-Api-Version: 2025-06-17', async () => {
    const missing = await callUsersApi(f.baseUrl, '/users/managed-user/create', {
      token: f.serviceKey,
      version: null,
    });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe(
      'Please provide a valid version. The X-Users-Api-Version header is missing; send X-Users-Api-Version: 2025-06-17',
    );
    const unknown = await callUsersApi(f.baseUrl, '/users/managed-user/create', {
      token: f.serviceKey,
      version: '2024-01-01',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(
      'Please provide a valid version. X-Users-Api-Version "2024-01-01" is not supported; use 2025-06-17',
    );
  });

  it('refuses an Accept header that excludes JSON with 406, and takes */* or none', async () => {
    const html = await callUsersApi(f.baseUrl, '/users/managed-user/create', {
      token: f.serviceKey,
      accept: 'text/html',
    });
    expect(html.status).toBe(406);
    expect(html.body.message).toMatch(/send Accept: application\/json/);
    expect(
      (await callUsersApi(f.baseUrl, '/users/managed-user/create', { token: f.serviceKey, accept: '*/*' }))
        .status,
    ).toBe(200);
    expect(
      (await callUsersApi(f.baseUrl, '/users/managed-user/create', { token: f.serviceKey, accept: null }))
        .status,
    ).toBe(200);
  });

  it.each([
    [undefined, 'Missing Authorization header; send Authorization: Bearer <credential>'],
    [
      '',
      'The Authorization header has no credential after "Bearer"; send Authorization: Bearer <credential>',
    ],
  ])('answers 401 without credentials', async (token, message) => {
    const res = await callUsersApi(f.baseUrl, '/users/managed-user/create', { token: token ?? null });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe(message);
  });

  it('answers 401 for a malformed or unknown bearer', async () => {
    const basic = await callUsersApi(f.baseUrl, '/users/managed-user/create', {
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(basic.status).toBe(401);
    expect(basic.body.message).toBe('Malformed Authorization header; expected "Bearer <credential>"');
    for (const token of ['nonsense', `svk_${'A'.repeat(43)}`, `mu_${'B'.repeat(43)}`]) {
      const res = await callUsersApi(f.baseUrl, '/users/managed-user/create', { token });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Invalid request token.');
    }
  });

  it('answers 401 for a revoked service key, from the next request on', async () => {
    const { key, secret } = await createServiceKey(f.identity.deps, {
      organizationId: f.orgId,
      name: 'doomed',
    });
    expect((await create('', secret)).status).toBe(200);
    await revokeServiceKey(f.identity.deps, key.id);
    const res = await create('', secret);
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid request token. This service key has been revoked.');
  });

  it("refuses a managed user's token on the management calls with 403", async () => {
    const created = await create();
    const token = created.body.access_token as string;
    for (const path of [
      '/users/managed-user/create',
      `/users/managed-user/refresh-token?target_user_id=${created.body.user_id}`,
      `/users/managed-user/delete?target_user_id=${created.body.user_id}`,
    ]) {
      const res = await callUsersApi(f.baseUrl, path, { token });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(
        "Managed users can only be managed with an organization's service key; this request used a managed user's access token",
      );
    }
  });

  it('answers 405 with Allow: POST for other methods', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const res = await callUsersApi(f.baseUrl, '/users/managed-user/create', {
        token: f.serviceKey,
        method,
      });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.body.message).toBe(
        `Method ${method} is not allowed on /users/managed-user/create; use POST`,
      );
    }
  });
});
