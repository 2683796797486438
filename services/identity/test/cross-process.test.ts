import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { testDatabaseUrl } from '@cairn/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceKey, revokeServiceKey } from '../src/index.ts';
import { callUsersApi, type IdentityFixture, startIdentity } from './helpers.ts';

const cli = fileURLToPath(new URL('../../../apps/cli/bin/cairn.js', import.meta.url));

/** Starts `cairn serve` in another process on the same PostgreSQL database; resolves with its base URL. */
function startServer(databaseUrl: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, [cli, 'serve'], {
    // No demo places: the first start's tens of thousands would only slow the start this test waits for.
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      EDGE_PORT: '0',
      LOG_LEVEL: 'warn',
      PLACES_DEMO_COUNT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    // A first `cairn serve` on a database migrates it and may seed the demo places: over 30 s on a slow, shared
    // 2-core machine (a CI run on 1 December), which is not what this test is about.
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 150_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, baseUrl: match[1]! });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

describe.skipIf(!testDatabaseUrl())('revocation across processes sharing PostgreSQL', () => {
  let f: IdentityFixture;
  let other: { child: ChildProcess; baseUrl: string };
  beforeAll(async () => {
    f = await startIdentity();
    other = await startServer(f.deps.db.url!);
  }, 180_000);
  afterAll(async () => {
    other?.child.kill('SIGTERM');
    await f?.close();
  });

  it('a key revoked in this process is refused by the other once the notice arrives (within the cache lifetime)', async () => {
    const { key, secret } = await createServiceKey(f.identity.deps, {
      organizationId: f.orgId,
      name: 'shared',
    });
    // The other process has resolved (and cached) the key.
    for (let i = 0; i < 3; i++) {
      expect(
        (await callUsersApi(other.baseUrl, '/users/managed-user/create', { token: secret })).status,
      ).toBe(200);
    }
    await revokeServiceKey(f.identity.deps, key.id);
    // The NOTIFY reaches the other process at our commit, but asynchronously: a request sent at once may
    // still find the cached key. The documented bound is the cache's 1 s lifetime; allow for a loaded machine.
    const deadline = Date.now() + 5_000;
    let res = await callUsersApi(other.baseUrl, '/users/managed-user/create', { token: secret });
    while (res.status === 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      res = await callUsersApi(other.baseUrl, '/users/managed-user/create', { token: secret });
    }
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid request token. This service key has been revoked.');
  });

  it('a managed user refreshed in the other process loses its old token here at once', async () => {
    const created = await callUsersApi(other.baseUrl, '/users/managed-user/create', { token: f.serviceKey });
    const oldToken = created.body.access_token as string;
    await f.identity.resolveBearer(oldToken); // cached in this process
    const refreshed = await callUsersApi(
      other.baseUrl,
      `/users/managed-user/refresh-token?target_user_id=${created.body.user_id}`,
      { token: f.serviceKey },
    );
    expect(refreshed.status).toBe(200);
    // NOTIFY is sent at the other process's commit and read here asynchronously: wait for it, up to the
    // cache's lifetime and a margin for a loaded machine.
    const deadline = Date.now() + 5_000;
    while (
      Date.now() < deadline &&
      (await Promise.resolve(f.identity.resolveBearer(oldToken)).then(
        () => true,
        () => false,
      ))
    ) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await expect(f.identity.resolveBearer(oldToken)).rejects.toMatchObject({ status: 401 });
  });
});
