import { getOrganization } from '@cairn/identity';
import { listUsage } from '@cairn/places';
import { type CommandSpec, optionalString, UsageError } from '../command.ts';
import { table } from '../output.ts';

export const usageCommand: CommandSpec = {
  options: { org: { type: 'string' }, since: { type: 'string' } },
  optionHelp: {
    org: 'only this organization (id or name)',
    since: 'only from this day on (YYYY-MM-DD, UTC)',
  },
  usesDatabase: true,
  async run(args, ctx) {
    const since = optionalString(args, 'since');
    if (since !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(since))
      throw new UsageError('--since must be YYYY-MM-DD');
    const runtime = await ctx.runtime();
    await runtime.places.usage.flush();
    const orgName = optionalString(args, 'org');
    const org = orgName ? await getOrganization(runtime.identity.deps.db, orgName) : undefined;
    const rows = await listUsage(runtime.deps.db, {
      ...(since ? { since } : {}),
      ...(org ? { organizationId: org.id } : {}),
    });
    if (ctx.json) {
      ctx.out.json(rows.map((r) => ({ ...r, last_call_at: r.last_call_at.toISOString() })));
      return 0;
    }
    if (rows.length === 0) {
      ctx.out.line('No places API calls recorded yet');
      return 0;
    }
    ctx.out.line(
      table([
        ['ORGANIZATION', 'CREDENTIAL', 'KIND', 'APP', 'USER', 'ENDPOINT', 'CALLS', 'THROTTLED', 'LAST CALL'],
        ...rows.map((r) => [
          r.organization_id,
          r.credential_id,
          r.credential_kind,
          r.app_id ?? '-',
          r.user_id === null ? '-' : String(r.user_id),
          r.endpoint,
          String(r.calls),
          String(r.throttled),
          r.last_call_at.toISOString(),
        ]),
      ]),
    );
    return 0;
  },
};
