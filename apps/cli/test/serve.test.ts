import { tempDirs } from '@cairn/kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServe } from './run-cli.ts';

const dirs = tempDirs('cairn-serve');
afterAll(() => dirs.removeAll());
// No demo places here: seeding them takes seconds and these tests are about identity and the server.
const embedded = () => ({ CAIRN_DATA_DIR: dirs.make(), DATABASE_URL: '', PLACES_DEMO_COUNT: '0' });

const usersApiHeaders = (key: string) => ({
  authorization: `Bearer ${key}`,
  'x-users-api-version': '2025-06-17',
  accept: 'application/json',
});

describe('cairn serve on the embedded database', () => {
  it('prints a demo key once, serves the users API with it, and shuts down gracefully', async () => {
    const env = embedded();
    const first = await startServe(env);
    try {
      const key = /\n {2}(svk_[A-Za-z0-9_-]{43})\n/.exec(first.output())?.[1];
      expect(key, first.output()).toBeDefined();
      expect(await (await fetch(`${first.baseUrl}/healthz`)).json()).toEqual({ status: 'ok' });
      const created = await fetch(`${first.baseUrl}/users/managed-user/create?first_name=Ada`, {
        method: 'POST',
        headers: usersApiHeaders(key!),
      });
      expect(created.status).toBe(200);
      const { user_id, access_token } = (await created.json()) as { user_id: number; access_token: string };
      const refreshed = await fetch(
        `${first.baseUrl}/users/managed-user/refresh-token?target_user_id=${user_id}`,
        {
          method: 'POST',
          headers: usersApiHeaders(key!),
        },
      );
      expect(refreshed.status).toBe(200);
      expect(((await refreshed.json()) as { access_token: string }).access_token).not.toBe(access_token);

      // A second process on the same directory stops with a clear error instead of losing data.
      const second = await runCli(['serve'], { ...env, PORT: '0' });
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/data directory .* is in use by process \d+; stop that process/);

      // Other commands are carried out by the running server.
      const keys = await runCli(['keys', 'list', '--json'], env);
      expect(keys.code, keys.stderr).toBe(0);
      expect(JSON.parse(keys.stdout)).toHaveLength(1);
      expect(keys.stdout).not.toContain(key!);
    } finally {
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
    }

    // On the next start, no new demo key is made: the first one still works.
    const restarted = await startServe(env);
    try {
      expect(restarted.output()).not.toMatch(/svk_/);
    } finally {
      restarted.child.kill('SIGTERM');
      await restarted.exited;
    }
  }, 300_000);

  it('installs CAIRN_BOOTSTRAP_SERVICE_KEY instead of printing a new key', async () => {
    const generated = await runCli(['keys', 'generate'], {});
    const key = generated.stdout.trim();
    expect(key).toMatch(/^svk_[A-Za-z0-9_-]{43}$/);
    const server = await startServe({ ...embedded(), CAIRN_BOOTSTRAP_SERVICE_KEY: key });
    try {
      expect(server.output()).not.toContain(key);
      const res = await fetch(`${server.baseUrl}/users/managed-user/create`, {
        method: 'POST',
        headers: usersApiHeaders(key),
      });
      expect(res.status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 300_000);
});
