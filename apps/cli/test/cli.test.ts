import { identityMigrations } from '@cairn/identity';
import { createTestDb, testDatabaseUrl } from '@cairn/kit';
import { tempDirs } from '@cairn/kit/testing';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { runCli } from './run-cli.ts';

const dirs = tempDirs('cairn-cli');
afterAll(() => dirs.removeAll());

/** On the PostgreSQL pass the CLI works on a scratch database of its own; otherwise on an embedded one. */
async function storage(): Promise<{ env: Record<string, string | undefined>; drop(): Promise<void> }> {
  if (!testDatabaseUrl()) {
    return {
      env: { CAIRN_DATA_DIR: dirs.make(), DATABASE_URL: '' },
      drop: async () => {},
    };
  }
  const db = await createTestDb(identityMigrations);
  return { env: { DATABASE_URL: db.url }, drop: () => db.close() };
}

describe('the cairn command', () => {
  it('lists its commands and explains each with --help', async () => {
    const overview = await runCli(['--help'], {});
    expect(overview.code).toBe(0);
    for (const name of ['serve', 'orgs create', 'keys create', 'keys list', 'keys revoke']) {
      expect(overview.stdout).toContain(name);
    }
    const help = await runCli(['keys', 'create', '--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: cairn keys create [options]');
    expect(help.stdout).toMatch(/--org <value>\s+organization id or name/);
    expect(help.stdout).toContain('--json');
  });

  it('stops on a bad configuration value with one line naming the variable', async () => {
    const res = await runCli(['orgs', 'list'], { PORT: 'abc' });
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe('error: PORT: expected an integer from 0 to 65535, got "abc"');
  });

  it('refuses unknown commands and options with usage errors', async () => {
    expect((await runCli(['frobnicate'], {})).code).toBe(2);
    const bad = await runCli(['keys', 'create', '--bogus'], {});
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Unknown option '--bogus'.*cairn keys create --help/s);
  });

  it('creates organizations and keys, lists keys without secrets, and revokes them', async () => {
    const { env, drop } = await storage();
    onTestFinished(drop);
    const org = await runCli(['orgs', 'create', '--name', 'Cartographers', '--json'], env);
    expect(org.code, org.stderr).toBe(0);
    const orgJson = JSON.parse(org.stdout) as { id: string; name: string };
    expect(orgJson.name).toBe('Cartographers');

    const dup = await runCli(['orgs', 'create', '--name', 'Cartographers'], env);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('An organization named "Cartographers" already exists');

    const created = await runCli(['keys', 'create', '--org', 'Cartographers', '--name', 'ci', '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout) as { id: string; key: string; organization_id: string };
    expect(key.key).toMatch(/^svk_[A-Za-z0-9_-]{43}$/);
    expect(key.organization_id).toBe(orgJson.id);

    const listed = await runCli(['keys', 'list', '--org', orgJson.id, '--json'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(key.key);
    const rows = JSON.parse(listed.stdout) as { id: string; revoked_at: string | null; hint: string }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: key.id, revoked_at: null });

    const revoked = await runCli(['keys', 'revoke', key.id], env);
    expect(revoked.code, revoked.stderr).toBe(0);
    const after = JSON.parse((await runCli(['keys', 'list', '--json'], env)).stdout) as {
      revoked_at: string | null;
    }[];
    expect(after[0]!.revoked_at).not.toBeNull();

    const again = await runCli(['keys', 'revoke', key.id], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`No live service key with id ${key.id}`);
    const notAnId = await runCli(['keys', 'revoke', 'xyz'], env);
    expect(notAnId.stderr).toContain('"xyz" is not a service key id');
    const noOrg = await runCli(['keys', 'create', '--org', 'Nobody'], env);
    expect(noOrg.code).toBe(1);
    expect(noOrg.stderr).toContain('No organization with id or name "Nobody"');
  }, 300_000);
});
