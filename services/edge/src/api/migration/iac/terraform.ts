import type { EdgeDeps } from '../../../deps.ts';
import { readLegacyWafConfig } from '../../../legacy-config.ts';
import type { StoredRule } from '../../rulesets/model.ts';
import { findVersion, listZoneRulesets } from '../../rulesets/store.ts';
import { OWASP_PACKAGE_ID } from '../../waf-legacy/catalogue.ts';
import type { Zone } from '../../zones/store.ts';
import { owaspSettingsStored } from '../store.ts';
import { type HclValue, hclBody } from './hcl.ts';

/**
 * The zone's rulesets for Terraform (provider v5 `cloudflare_ruleset`), their import commands, and the
 * previous WAF's resources to drop from state — the replacement procedure of the seed: generate, keep
 * phase http_request_firewall_managed, import, plan, `terraform state rm` (dry-run first), delete the
 * old blocks, plan again. Resource names follow cf-terraforming's `terraform_managed_resource_<id>`.
 */
export interface TerraformExport {
  zone: { id: string; name: string; migration_state: string };
  phase: string | null;
  resources: { address: string; ruleset_id: string; phase: string; name: string; rules: number }[];
  /** The `cloudflare_ruleset` resources. */
  hcl: string;
  /** `terraform import <address> zones/<zone id>/<ruleset id>`, one per resource. */
  imports: string[];
  /** The same as Terraform ≥ 1.5 `import` blocks. */
  import_blocks: string;
  legacy: {
    /** State addresses of the previous WAF's resources this zone configured (provider ≤ 3.35). */
    addresses: string[];
    dry_run: string | null;
    remove: string | null;
    /** Finds them whatever they are named in your configuration. */
    find: string;
  };
  procedure: string[];
}

const address = (id: string) => `cloudflare_ruleset.terraform_managed_resource_${id}`;

/** A stored rule in the v5 schema: read-only fields left out, `ref` only when it is not the id. */
function ruleValue(rule: StoredRule): HclValue {
  const out: { [key: string]: HclValue } = {
    action: rule.action,
    description: rule.description,
    enabled: rule.enabled,
    expression: rule.expression,
  };
  if (rule.action_parameters) out.action_parameters = rule.action_parameters as HclValue;
  if (rule.logging) out.logging = rule.logging;
  if (rule.ref !== '' && rule.ref !== rule.id) out.ref = rule.ref;
  return out;
}

export async function exportTerraform(
  deps: Pick<EdgeDeps, 'db' | 'catalogue'>,
  zone: Zone,
  options: { phase?: string } = {},
): Promise<TerraformExport> {
  const rulesets = (await listZoneRulesets(deps.db, zone.id))
    .filter((rs) => rs.version > 0 && rs.kind === 'zone')
    .filter((rs) => options.phase === undefined || rs.phase === options.phase)
    .sort((a, b) => a.phase.localeCompare(b.phase));
  const blocks: string[] = [];
  const resources: TerraformExport['resources'] = [];
  for (const rs of rulesets) {
    const version = await findVersion(deps.db, rs.id, rs.version);
    const rules = version?.rules ?? [];
    const name = version?.name ?? rs.name;
    const head: { [key: string]: HclValue } = { kind: rs.kind, name, phase: rs.phase, zone_id: zone.id };
    const description = version?.description ?? rs.description;
    if (description !== '') head.description = description;
    // As cf-terraforming writes it: the ruleset's own attributes, then its rules.
    blocks.push(
      [
        `resource "cloudflare_ruleset" "terraform_managed_resource_${rs.id}" {`,
        ...hclBody(head, '  '),
        ...hclBody({ rules: rules.map(ruleValue) }, '  '),
        '}',
      ].join('\n'),
    );
    resources.push({
      address: address(rs.id),
      ruleset_id: rs.id,
      phase: rs.phase,
      name,
      rules: rules.length,
    });
  }
  const imports = resources.map((r) => `terraform import ${r.address} zones/${zone.id}/${r.ruleset_id}`);
  const importBlocks = resources
    .map((r) => `import {\n  to = ${r.address}\n  id = "zones/${zone.id}/${r.ruleset_id}"\n}`)
    .join('\n\n');
  const addresses = await legacyAddresses(deps, zone);
  return {
    zone: { id: zone.id, name: zone.name, migration_state: zone.wafMigrationState },
    phase: options.phase ?? null,
    resources,
    hcl: blocks.length === 0 ? '' : `${blocks.join('\n\n')}\n`,
    imports,
    import_blocks: importBlocks,
    legacy: {
      addresses,
      dry_run: addresses.length === 0 ? null : `terraform state rm -dry-run ${addresses.join(' ')}`,
      remove: addresses.length === 0 ? null : `terraform state rm ${addresses.join(' ')}`,
      find: `terraform state list | grep -E '(^|\\.)cloudflare_waf_(package|group|rule)\\.'`,
    },
    procedure: [
      `Keep only the resource of phase http_request_firewall_managed: cairn edge export --zone ${zone.name} --format terraform --phase http_request_firewall_managed`,
      'Import it into the state with the terraform import commands (or the import blocks)',
      'Run terraform plan: the imported ruleset must show no changes',
      'Remove the cloudflare_waf_package, cloudflare_waf_group and cloudflare_waf_rule resources from the state, with -dry-run first',
      'Delete those resources from your configuration files',
      'Run terraform plan again: it must show no pending changes',
    ],
  };
}

/** The previous WAF's resources a Terraform user of this zone would have: what the zone configured. */
async function legacyAddresses(deps: Pick<EdgeDeps, 'db' | 'catalogue'>, zone: Zone): Promise<string[]> {
  const legacy = await readLegacyWafConfig(deps.db, deps.catalogue, zone.id);
  const out: string[] = [];
  if (await owaspSettingsStored(deps.db, zone.id, OWASP_PACKAGE_ID))
    out.push(`cloudflare_waf_package.terraform_managed_resource_${OWASP_PACKAGE_ID}`);
  const groups = [...legacy.managed.groupModes.keys(), ...legacy.owasp.groupModes.keys()];
  for (const id of groups) out.push(`cloudflare_waf_group.terraform_managed_resource_${id}`);
  const rules = [...legacy.managed.ruleModes.keys(), ...legacy.owasp.ruleModes.keys()];
  for (const id of rules) out.push(`cloudflare_waf_rule.terraform_managed_resource_${id}`);
  return out;
}

/** The export as one file: valid HCL, with the commands of the procedure as comments. */
export function renderTerraform(x: TerraformExport): string {
  const lines = [
    `# Zone ${x.zone.name} (${x.zone.id}), WAF upgrade state ${x.zone.migration_state}${x.phase ? `, phase ${x.phase}` : ''}.`,
    '# Generated by cairn edge export for the Cloudflare Terraform provider v5.',
    '',
  ];
  if (x.hcl === '') lines.push('# No zone rulesets to export.', '');
  else lines.push(x.hcl);
  lines.push('# 1. Import the rulesets into the state, then check that terraform plan shows no changes:');
  for (const c of x.imports) lines.push(`#   ${c}`);
  if (x.imports.length === 0) lines.push('#   (nothing to import)');
  lines.push('#', '# 2. Remove the previous WAF resources (provider <= 3.35) from the state, dry-run first:');
  if (x.legacy.dry_run && x.legacy.remove) lines.push(`#   ${x.legacy.dry_run}`, `#   ${x.legacy.remove}`);
  else lines.push('#   (this zone configured none of them)');
  lines.push(`#   To find them under your own names: ${x.legacy.find}`);
  lines.push(
    '#',
    '# 3. Delete them from your configuration files; terraform plan must then show no pending changes.',
  );
  return `${lines.join('\n')}\n`;
}
