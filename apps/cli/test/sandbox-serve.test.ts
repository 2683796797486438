import { tempDirs } from '@cairn/kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServe } from './run-cli.ts';

const dirs = tempDirs('cairn-sandbox-serve');
afterAll(() => dirs.removeAll());
const embedded = () => ({ CAIRN_DATA_DIR: dirs.make(), DATABASE_URL: '', PLACES_DEMO_COUNT: '0' });

describe('cairn serve with CAIRN_SANDBOX', () => {
  it('says which mode it is in; the controls exist only in sandbox mode, with the bootstrap key', async () => {
    const env = embedded();
    const server = await startServe({ ...env, CAIRN_SANDBOX: '1' });
    try {
      expect(server.output()).toMatch(
        /Sandbox mode \(CAIRN_SANDBOX=1\): test controls under http:\/\/[^ ]+\/_cairn\//,
      );
      const key = /\n {2}(svk_[A-Za-z0-9_-]{43})\n/.exec(server.output())?.[1];
      expect(key, server.output()).toBeDefined();
      const clock = await fetch(`${server.baseUrl}/_cairn/clock`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(clock.status).toBe(200);
      expect(await clock.json()).toMatchObject({ frozen: false });
      expect((await fetch(`${server.baseUrl}/_cairn/clock`)).status).toBe(401);
      const reset = await fetch(`${server.baseUrl}/_cairn/reset`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
      });
      expect(reset.status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }

    // The same (sandbox) directory without the setting: production mode, no controls.
    const plain = await startServe(env);
    try {
      expect(plain.output()).toMatch(/Production mode: no sandbox controls/);
      expect((await fetch(`${plain.baseUrl}/_cairn/clock`)).status).toBe(404);
    } finally {
      plain.child.kill('SIGTERM');
      await plain.exited;
    }
  }, 300_000);

  it('refuses a data directory that was not created in sandbox mode, and a bad CAIRN_SANDBOX', async () => {
    const env = embedded();
    const migrated = await runCli(['migrate'], env);
    expect(migrated.code, migrated.stderr).toBe(0);
    const refused = await runCli(['serve'], { ...env, PORT: '0', EDGE_PORT: '0', CAIRN_SANDBOX: '1' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/was not created in sandbox mode/);

    const bad = await runCli(['serve'], { ...env, PORT: '0', CAIRN_SANDBOX: 'yes' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/CAIRN_SANDBOX: expected 1/);
  }, 300_000);
});
