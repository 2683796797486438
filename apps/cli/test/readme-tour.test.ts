import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createTestDb, testDatabaseUrl } from '@cairn/kit';
import { tempDirs } from '@cairn/kit/testing';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { CLI, startServe } from './run-cli.ts';

const dirs = tempDirs('cairn-tour');
afterAll(() => dirs.removeAll());

const README = fileURLToPath(new URL('../../../README.md', import.meta.url));

/** The shell blocks of the README's "A tour" section, in order. */
function tourBlocks(): string[] {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf('\n## A tour');
  if (start < 0) throw new Error('README.md has no "## A tour" section');
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

function bash(script: string, cwd: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe("the README's tour", () => {
  it('runs as written against a started server: the seed calls, the editor refusing a missing token, the edge API and the dashboard', async () => {
    const storage: Record<string, string> = { PLACES_DEMO_COUNT: '3000', LOG_LEVEL: 'warn' };
    if (testDatabaseUrl()) {
      const db = await createTestDb([]);
      onTestFinished(() => db.close());
      storage.DATABASE_URL = db.url!;
    } else {
      Object.assign(storage, { CAIRN_DATA_DIR: dirs.make(), DATABASE_URL: '' });
    }
    const server = await startServe(storage);
    onTestFinished(async () => {
      server.child.kill('SIGTERM');
      await server.exited;
    });
    const key = /\n {2}(svk_[A-Za-z0-9_-]{43})\n/.exec(server.output())?.[1];
    expect(key, server.output()).toBeDefined();

    // What a reader does by hand: paste the printed key, use the server's address, run cairn from the checkout.
    const blocks = tourBlocks();
    expect(blocks).toHaveLength(2);
    const script = blocks
      .join('\n')
      .replace(/^KEY=svk_….*$/m, `KEY=${key}`)
      .replaceAll('http://127.0.0.1:8080', server.baseUrl)
      .replaceAll('npx cairn', `node ${CLI}`);
    expect(script).not.toContain('svk_…');
    const run = await bash(script, dirs.make(), storage);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/\{"user_id":\d+,"access_token":"mu_[^"]+"\}/);
    expect(run.output).toMatch(/^1$/m); // the refreshed token finds a place
    expect(run.output).toContain('editor without a session token: 400');
    expect(run.output).toMatch(/^shop\.example\.com$/m);
    expect(run.output).toContain('dashboard: 200');
    expect(run.output).toMatch(/Sign in at .*\/dashboard\/ with the token cet_/);
  }, 300_000);
});
