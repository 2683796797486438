import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { identityMigrations } from '@cairn/identity';
import { createTestDb, testDatabaseUrl } from '@cairn/kit';
import { tempDirs } from '@cairn/kit/testing';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { catalogue, loadCommand } from '../src/commands/index.ts';
import { runCli } from './run-cli.ts';

const dirs = tempDirs('cairn-cli');
afterAll(() => dirs.removeAll());

/** On the PostgreSQL pass the CLI works on a scratch database of its own; otherwise on an embedded one. */
async function storage(): Promise<{ env: Record<string, string | undefined>; drop(): Promise<void> }> {
  if (!testDatabaseUrl()) {
    const env = { CAIRN_DATA_DIR: dirs.make(), DATABASE_URL: '' };
    const created = await runCli(['migrate'], env);
    expect(created.code, created.stderr).toBe(0);
    return { env, drop: async () => {} };
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

  it('lists the commands of a group with <group> --help, and asks for one when given only the group', async () => {
    const edge = await runCli(['edge', '--help'], {});
    expect(edge.code).toBe(0);
    expect(edge.stdout).toContain('Usage: cairn edge <command> [options]');
    for (const name of [
      'edge zones create',
      'edge tokens revoke',
      'edge users reset-password',
      'edge export',
    ]) {
      expect(edge.stdout).toContain(name);
    }
    expect(edge.stdout).not.toContain('keys create');
    const zones = await runCli(['edge', 'zones', '-h'], {});
    expect(zones.stdout.match(/^ {2}edge zones \S+/gm)).toEqual(['  edge zones create', '  edge zones list']);
    for (const group of ['apps', 'keys', 'orgs', 'places', 'edits']) {
      const help = await runCli([group, '--help'], {});
      expect(help.code, group).toBe(0);
      expect(help.stdout, group).toMatch(new RegExp(`^ {2}${group} \\S+`, 'm'));
    }
    const bare = await runCli(['apps'], {});
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/"cairn apps" needs a command[\s\S]*apps create[\s\S]*apps revoke/);
    const typo = await runCli(['edge', 'zones', 'delete'], {});
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/unknown command "edge zones delete"[\s\S]*Commands of cairn edge zones:/);
  });

  it("every command of the catalogue loads from its module, with the catalogue's words", async () => {
    expect(catalogue.length).toBeGreaterThan(20);
    for (const entry of catalogue) {
      const command = await loadCommand(entry);
      expect(command.name).toBe(entry.name);
      expect(typeof command.run).toBe('function');
    }
    await expect(loadCommand({ ...catalogue[0]!, export: 'nothingHere' })).rejects.toThrow(
      /names .* export nothingHere, which is not a command/,
    );
  });

  it('a command pointed at a directory without a database says so and creates nothing', async () => {
    const parent = dirs.make();
    const missing = join(parent, 'typo');
    const res = await runCli(['orgs', 'list'], { CAIRN_DATA_DIR: missing, DATABASE_URL: '' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`there is no Cairn database in ${missing} (CAIRN_DATA_DIR)`);
    expect(res.stderr).toContain('nothing was created');
    expect(existsSync(missing)).toBe(false);
    // An empty directory stays empty.
    const empty = dirs.make();
    expect((await runCli(['keys', 'list', '--json'], { CAIRN_DATA_DIR: empty, DATABASE_URL: '' })).code).toBe(
      1,
    );
    expect(readdirSync(empty)).toEqual([]);
    // Commands that need no database still run.
    expect((await runCli(['keys', 'generate'], { CAIRN_DATA_DIR: missing, DATABASE_URL: '' })).code).toBe(0);
    expect(existsSync(missing)).toBe(false);
  });

  it.skipIf(!testDatabaseUrl())(
    'a command pointed at a PostgreSQL database without Cairn tables says so and creates nothing (PostgreSQL pass only)',
    async () => {
      const db = await createTestDb([]);
      onTestFinished(() => db.close());
      await db.query('DROP TABLE cairn_migrations');
      const res = await runCli(['orgs', 'list'], { DATABASE_URL: db.url });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('the database at DATABASE_URL has no Cairn tables; nothing was created');
      const { rows } = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'",
      );
      expect(rows[0]?.n).toBe(0);
    },
  );

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

  it("a command's standard output is its answer: start-up warnings go to standard error", async () => {
    // A fresh database first (on the embedded pass, `cairn migrate` in a child process), as long as below.
    const { env, drop } = await storage();
    onTestFinished(drop);
    // Without the CRS, opening the services warns that the OWASP rulesets answer 503.
    const res = await runCli(['orgs', 'list', '--json'], { ...env, CAIRN_CRS_DIR: dirs.make() });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toBeInstanceOf(Array);
    expect(res.stderr).toContain('The OWASP Core Rule Set is missing');
  }, 300_000);

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

  it('registers an app that requires PKCE with --require-pkce; the default does not', async () => {
    const { env, drop } = await storage();
    onTestFinished(drop);
    expect((await runCli(['orgs', 'create', '--name', 'Pkce Co'], env)).code).toBe(0);
    const create = (name: string, ...flags: string[]) =>
      runCli(
        [
          'apps',
          'create',
          '--org',
          'Pkce Co',
          '--name',
          name,
          '--redirect-uri',
          'https://a.example.com/cb',
          ...flags,
        ],
        env,
      );
    const strict = await create('Strict', '--require-pkce', '--json');
    expect(strict.code, strict.stderr).toBe(0);
    expect(JSON.parse(strict.stdout)).toMatchObject({ name: 'Strict', pkce_required: true });
    const plain = await create('Plain');
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('Registered "Plain" for "Pkce Co". The secret');
    const listed = JSON.parse((await runCli(['apps', 'list', '--json'], env)).stdout) as {
      name: string;
      pkce_required: boolean;
    }[];
    expect(listed.map((a) => [a.name, a.pkce_required])).toEqual([
      ['Strict', true],
      ['Plain', false],
    ]);
  }, 300_000);
});
