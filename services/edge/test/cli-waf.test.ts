import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDb, testDatabaseUrl } from '@cairn/kit';
import { afterAll, describe, expect, it } from 'vitest';
import { ANOMALY_RULE_ID, EDGE_MANAGED_RULESET_ID, OWASP_RULESET_ID } from '../src/index.ts';

// Issue 40, point 6: `cairn edge waf` deploys the new WAF as the Rulesets API does, and says when the
// configuration can never block.

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

async function storage(): Promise<Record<string, string>> {
  if (testDatabaseUrl()) {
    const db = await createTestDb([]);
    cleanups.push(() => db.close());
    return { DATABASE_URL: db.url! };
  }
  const dir = mkdtempSync(join(tmpdir(), 'cairn-edge-waf-cli-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  const env = { CAIRN_DATA_DIR: dir, DATABASE_URL: '' };
  const created = await cairn(['migrate'], env);
  if (created.code !== 0) throw new Error(`cairn migrate failed: ${created.stderr}`);
  return env;
}

describe('cairn edge waf', () => {
  it('deploys both managed rulesets with the paranoia level, threshold and action, shows them, and warns when it can never block', async () => {
    const env = { ...(await storage()), LOG_LEVEL: 'silent' };
    const zone = await cairn(
      ['edge', 'zones', 'create', '--name', 'waf.example.com', '--plan', 'business'],
      env,
    );
    expect(zone.code, zone.stderr).toBe(0);

    const deployed = await cairn(
      [
        'edge',
        'waf',
        'deploy',
        '--zone',
        'waf.example.com',
        '--paranoia-level',
        '2',
        '--threshold',
        '25',
        '--action',
        'managed_challenge',
        '--json',
      ],
      env,
    );
    expect(deployed.code, deployed.stderr).toBe(0);
    const answer = JSON.parse(deployed.stdout) as {
      result: { rules: { action_parameters: unknown }[] };
      messages: string[];
    };
    expect(answer.result.rules.map((r) => r.action_parameters)).toEqual([
      { id: EDGE_MANAGED_RULESET_ID },
      {
        id: OWASP_RULESET_ID,
        overrides: {
          categories: [
            { category: 'paranoia-level-3', enabled: false },
            { category: 'paranoia-level-4', enabled: false },
          ],
          rules: [{ id: ANOMALY_RULE_ID, score_threshold: 25, action: 'managed_challenge' }],
        },
      },
    ]);
    // a new zone still runs the previous WAF until its upgrade: said, not hidden
    expect(answer.messages).toEqual([expect.stringMatching(/previous WAF managed rules/)]);

    const shown = await cairn(['edge', 'waf', 'show', '--zone', 'waf.example.com'], env);
    expect(shown.stdout).toContain('Cloudflare Managed Ruleset');
    expect(shown.stdout).toContain('OWASP Core Ruleset: PL2, threshold 25, action managed_challenge');

    const logOnly = await cairn(
      ['edge', 'waf', 'deploy', '--zone', 'waf.example.com', '--rulesets', 'owasp', '--action', 'log'],
      env,
    );
    expect(logOnly.code, logOnly.stderr).toBe(0);
    expect(logOnly.stdout).toMatch(
      /warning: rules\[0\]: the OWASP Core Ruleset can never block: .*only logs/,
    );

    const bad = await cairn(
      ['edge', 'waf', 'deploy', '--zone', 'waf.example.com', '--paranoia-level', '5'],
      env,
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--paranoia-level must be a whole number from 1 to 4, not "5"');

    const help = await cairn(['edge', 'waf', 'deploy', '--help'], env);
    expect(help.stdout).toContain('--threshold');
    expect(help.stdout).toMatch(/ModSecurity's default is 5/);
  }, 900_000);
});
