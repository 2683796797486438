import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDb, testDatabaseUrl } from '@cairn/kit';
import { afterAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../../../apps/cli/bin/cairn.js', import.meta.url));

function cairn(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

/** The CLI's own storage: a scratch PostgreSQL database on the PostgreSQL pass, an embedded one otherwise. */
async function storage(): Promise<Record<string, string>> {
  if (testDatabaseUrl()) {
    const db = await createTestDb([]);
    cleanups.push(() => db.close());
    return { DATABASE_URL: db.url! };
  }
  const dir = mkdtempSync(join(tmpdir(), 'cairn-edge-cli-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  const env = { CAIRN_DATA_DIR: dir, DATABASE_URL: '' };
  // Commands other than serve and migrate refuse a directory without a database.
  const created = await cairn(['migrate'], env);
  if (created.code !== 0) throw new Error(`cairn migrate failed: ${created.stderr}`);
  return env;
}

describe('cairn edge', () => {
  it('creates zones with a plan and tokens with per-zone permissions, shown once', async () => {
    const env = { ...(await storage()), LOG_LEVEL: 'silent' };
    const zone = await cairn(
      ['edge', 'zones', 'create', '--name', 'cli.example.com', '--plan', 'business', '--json'],
      env,
    );
    expect(zone.code, zone.stderr).toBe(0);
    expect(JSON.parse(zone.stdout)).toMatchObject({
      name: 'cli.example.com',
      plan: 'business',
      status: 'active',
      waf_migration_state: 'start',
    });
    const made = await cairn(
      [
        'edge',
        'tokens',
        'create',
        '--zone',
        'cli.example.com',
        '--permissions',
        'rulesets:edit,waf:read',
        '--json',
      ],
      env,
    );
    expect(made.code, made.stderr).toBe(0);
    const token = JSON.parse(made.stdout) as { token: string; hint: string; grants: unknown[] };
    expect(token.token).toMatch(/^cet_[A-Za-z0-9_-]{43}$/);
    expect(token.grants).toHaveLength(2);
    const list = await cairn(['edge', 'tokens', 'list', '--json'], env);
    expect(list.stdout).toContain(token.hint);
    expect(list.stdout).not.toContain(token.token);
    const bad = await cairn(
      ['edge', 'tokens', 'create', '--zone', 'cli.example.com', '--permissions', 'waf:delete'],
      env,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown permission "waf:delete"/);
    const plan = await cairn(['edge', 'zones', 'create', '--name', 'x.example.com', '--plan', 'gold'], env);
    expect(plan.code).toBe(2);
    expect(plan.stderr).toMatch(/--plan must be one of free, pro, business, enterprise/);
  }, 120_000);

  it('creates dashboard logins with a generated password, shown once; a second one for the email is refused', async () => {
    const env = { ...(await storage()), LOG_LEVEL: 'silent' };
    const made = await cairn(
      ['edge', 'users', 'create', '--email', 'Ops@Example.com', '--name', 'Olga', '--json'],
      env,
    );
    expect(made.code, made.stderr).toBe(0);
    const user = JSON.parse(made.stdout) as { email: string; name: string; password: string };
    expect(user).toMatchObject({ email: 'ops@example.com', name: 'Olga', account: 'Default account' });
    expect(user.password.length).toBeGreaterThanOrEqual(20);
    const list = await cairn(['edge', 'users', 'list'], env);
    expect(list.stdout).toContain('ops@example.com');
    expect(list.stdout).not.toContain(user.password);
    const again = await cairn(['edge', 'users', 'create', '--email', 'ops@example.com'], env);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/ops@example.com already has a dashboard login/);
    const reset = await cairn(
      ['edge', 'users', 'reset-password', '--email', 'ops@example.com', '--json'],
      env,
    );
    expect(reset.code, reset.stderr).toBe(0);
    expect((JSON.parse(reset.stdout) as { password: string }).password).not.toBe(user.password);
    const nobody = await cairn(['edge', 'users', 'reset-password', '--email', 'nobody@example.com'], env);
    expect(nobody.stderr).toMatch(/nobody@example.com has no dashboard login/);
    const bad = await cairn(['edge', 'users', 'create', '--email', 'not-an-email'], env);
    expect(bad.stderr).toMatch(/'not-an-email' is not an email address/);
  }, 120_000);
});
