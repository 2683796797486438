import { exportTerraform, findZone, findZoneByName, isHexId, PHASES, renderTerraform } from '@cairn/edge';
import { type CommandSpec, optionalString, requiredString, UsageError } from '../command.ts';

/**
 * `cairn edge export`: a zone's rulesets as Terraform (provider v5 `cloudflare_ruleset`), with the import
 * commands and the previous WAF's resources to remove from the state — the seed's replacement procedure
 * after the WAF upgrade.
 */
export const edgeExport: CommandSpec = {
  options: { zone: { type: 'string' }, format: { type: 'string' }, phase: { type: 'string' } },
  optionHelp: {
    zone: 'the zone, by id or name',
    format: 'terraform (the only format)',
    phase: 'keep only this phase, e.g. http_request_firewall_managed',
  },
  usesDatabase: true,
  async run(args, ctx) {
    const format = optionalString(args, 'format') ?? 'terraform';
    if (format !== 'terraform') throw new UsageError(`--format must be terraform, not "${format}"`);
    const phase = optionalString(args, 'phase');
    if (phase !== undefined && !(PHASES as readonly string[]).includes(phase))
      throw new UsageError(
        `--phase must be a phase of the Rulesets API, such as http_request_firewall_managed, not "${phase}"`,
      );
    const ref = requiredString(args, 'zone');
    const { edge } = await ctx.runtime();
    const zone = isHexId(ref)
      ? await findZone(edge.deps.db, ref)
      : await findZoneByName(edge.deps.db, String(ref).toLowerCase());
    if (!zone) throw new UsageError(`no zone "${ref}": give a zone id or name (cairn edge zones list)`);
    const result = await exportTerraform(edge.deps, zone, phase === undefined ? {} : { phase });
    if (ctx.json) ctx.out.json(result);
    else ctx.out.line(renderTerraform(result).trimEnd());
    return 0;
  },
};
