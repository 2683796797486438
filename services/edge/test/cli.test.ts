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
  return { CAIRN_DATA_DIR: dir, DATABASE_URL: '' };
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
});
