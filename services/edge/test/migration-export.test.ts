import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../../apps/cli/src/index.ts';
import { hclString } from '../src/api/migration/iac/hcl.ts';
import { exportTerraform, findZone, MANAGED_PACKAGE_ID, renderTerraform } from '../src/index.ts';
import { call, type EdgeFixture, startEdge } from './helpers.ts';
import { freshZone, upgradeWithConfig } from './migration-helpers.ts';

const CLI = fileURLToPath(new URL('../../../apps/cli/bin/cairn.js', import.meta.url));

let f: EdgeFixture;
beforeAll(async () => {
  f = await startEdge();
});
afterAll(async () => {
  await f.close();
});

describe('Terraform export (provider v5 cloudflare_ruleset)', () => {
  it("writes the zone's rulesets, the import commands and the legacy resources to remove from state", async () => {
    const z = await freshZone(f, 'business', 'iac');
    await call(f, 'PATCH', `/zones/${z.id}/settings/waf`, { body: { value: 'on' } });
    await call(f, 'PATCH', `/zones/${z.id}/firewall/waf/packages/${MANAGED_PACKAGE_ID}/rules/100031`, {
      body: { mode: 'simulate' },
    });
    await call(f, 'POST', `/zones/${z.id}/firewall/rules`, {
      body: [
        {
          filter: { expression: 'ip.src eq 192.0.2.1' },
          action: 'bypass',
          products: ['waf'],
          description: 'office',
        },
      ],
    });
    const custom = await call(
      f,
      'PUT',
      `/zones/${z.id}/rulesets/phases/http_request_firewall_custom/entrypoint`,
      {
        body: {
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${ the HCL writer must escape
          rules: [{ action: 'block', expression: 'http.request.uri.path contains "${x}"', ref: 'my-block' }],
        },
      },
    );
    expect(custom.status, custom.text).toBe(200);
    const config = (await call(f, 'GET', `/zones/${z.id}/waf_migration/config?phase_two=1`)).body.result as {
      rules: { description: string }[];
    };
    expect((await upgradeWithConfig(f, z.id, 'pending', { body: config })).status).toBe(200);
    const zone = (await findZone(f.deps.db, z.id))!;

    const all = await exportTerraform(f.edge.deps, zone);
    expect(all.resources.map((r) => r.phase)).toEqual([
      'http_request_firewall_custom',
      'http_request_firewall_managed',
    ]);
    const managed = await exportTerraform(f.edge.deps, zone, { phase: 'http_request_firewall_managed' });
    expect(managed.resources).toHaveLength(1);
    const rs = managed.resources[0]!;
    expect(managed.hcl).toBe(
      `resource "cloudflare_ruleset" "terraform_managed_resource_${rs.ruleset_id}" {
  kind    = "zone"
  name    = "default"
  phase   = "http_request_firewall_managed"
  zone_id = "${z.id}"
  rules = [
    {
      action = "skip"
      action_parameters = {
        ruleset = "current"
      }
      description = ${hclString(config.rules[0]!.description)}
      enabled     = true
      expression  = "ip.src eq 192.0.2.1"
      logging = {
        enabled = true
      }
    },
    {
      action = "execute"
      action_parameters = {
        id = "efb7b8c949ac4650a09736fc376e9aee"
        overrides = {
          rules = [
            {
              action = "log"
              id     = "23ee7cebe6e8443e99ecf932ab579455"
            },
          ]
        }
      }
      description = ""
      enabled     = true
      expression  = "true"
    },
    {
      action = "execute"
      action_parameters = {
        id = "4814384a9e5d4991b9815dcfc25d2f1f"
        overrides = {
          categories = [
            {
              category = "paranoia-level-3"
              enabled  = false
            },
            {
              category = "paranoia-level-4"
              enabled  = false
            },
          ]
          rules = [
            {
              action          = "challenge"
              id              = "6179ae15870a4bb7b2d480d4843b323c"
              score_threshold = 40
            },
          ]
        }
      }
      description = ""
      enabled     = true
      expression  = "true"
    },
  ]
}
`,
    );
    expect(managed.imports).toEqual([
      `terraform import cloudflare_ruleset.terraform_managed_resource_${rs.ruleset_id} zones/${z.id}/${rs.ruleset_id}`,
    ]);
    expect(managed.import_blocks).toBe(
      `import {\n  to = cloudflare_ruleset.terraform_managed_resource_${rs.ruleset_id}\n  id = "zones/${z.id}/${rs.ruleset_id}"\n}`,
    );
    expect(managed.legacy.addresses).toEqual(['cloudflare_waf_rule.terraform_managed_resource_100031']);
    expect(managed.legacy.dry_run).toBe(
      'terraform state rm -dry-run cloudflare_waf_rule.terraform_managed_resource_100031',
    );
    // HCL escaping: "${" in an expression is not a template.
    expect(all.hcl).toContain('expression  = "http.request.uri.path contains \\"$${x}\\""');
    expect(all.hcl).toContain('ref         = "my-block"');
    const text = renderTerraform(managed);
    expect(text).toContain(`#   ${managed.imports[0]}`);
    expect(text).toContain(`#   ${managed.legacy.dry_run}`);
    expect(text.indexOf('-dry-run')).toBeLessThan(text.indexOf('#   terraform state rm cloudflare_waf_rule'));
  });
});

function cairn(args: string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `cairn edge export …` in this process, on the fixture's edge service (the CLI's runtime stands aside). */
async function runExport(args: Record<string, string>, json: boolean) {
  const argv = ['edge', 'export', ...Object.entries(args).flatMap(([k, v]) => [`--${k}`, v])];
  const res = await runCommand(json ? [...argv, '--json'] : argv, { edge: f.edge });
  return { ...res, text: res.stdout, json: json && res.code === 0 ? JSON.parse(res.stdout) : undefined };
}

describe('cairn edge export', () => {
  it('exports by zone name or id, as text or --json', async () => {
    const z = await freshZone(f, 'pro', 'iac');
    const json = await runExport({ zone: z.name, format: 'terraform' }, true);
    expect(json.code).toBe(0);
    expect(json.json).toMatchObject({
      zone: { id: z.id, name: z.name, migration_state: 'start' },
      resources: [],
      imports: [],
      legacy: { addresses: [], dry_run: null },
    });
    const text = await runExport({ zone: z.id, phase: 'http_request_firewall_managed' }, false);
    expect(text.code).toBe(0);
    expect(text.text).toContain('# No zone rulesets to export.');
    expect(text.text).toContain(
      `Zone ${z.name} (${z.id}), WAF upgrade state start, phase http_request_firewall_managed.`,
    );
    const nowhere = await runExport({ zone: 'nowhere.example.com' }, false);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toMatch(/no zone "nowhere.example.com"/);
    const badPhase = await runExport({ zone: z.name, phase: 'http_request_nope' }, false);
    expect(badPhase.code).toBe(2);
    expect(badPhase.stderr).toMatch(/--phase must be/);
  });

  it('is a command of cairn: other formats are refused', async () => {
    const bad = await cairn(['edge', 'export', '--zone', 'iac.example.com', '--format', 'pulumi']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--format must be terraform, not "pulumi"/);
  }, 60_000);
});
