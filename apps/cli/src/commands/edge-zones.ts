import { createZone, ensureAccount, findPlan, listZones, PLAN_NAMES, type Zone } from '@cairn/edge';
import { type CommandSpec, optionalString, requiredString, UsageError } from '../command.ts';
import { table } from '../output.ts';

const toJson = (z: Zone) => ({
  id: z.id,
  name: z.name,
  plan: z.plan,
  status: z.status,
  account: { id: z.accountId, name: z.accountName },
  waf_migration_state: z.wafMigrationState,
  origin: z.origin,
  created_on: z.createdOn.toISOString(),
});

export const edgeZonesCreate: CommandSpec = {
  options: {
    name: { type: 'string' },
    plan: { type: 'string' },
    account: { type: 'string' },
    origin: { type: 'string' },
  },
  optionHelp: {
    name: 'the domain name, e.g. example.com',
    plan: `one of ${PLAN_NAMES.join(', ')} (default free)`,
    account: 'account name (created when missing; default "Default account")',
    origin: 'where the edge proxy (EDGE_PORT) sends the zone traffic, e.g. http://127.0.0.1:3000',
  },
  usesDatabase: true,
  async run(args, ctx) {
    const planText = optionalString(args, 'plan') ?? 'free';
    const plan = findPlan(planText);
    if (!plan) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')}, not "${planText}"`);
    const { edge } = await ctx.runtime();
    const accountName = optionalString(args, 'account');
    const origin = optionalString(args, 'origin');
    const account = await ensureAccount(edge.deps, accountName);
    const zone = await createZone(edge.deps, {
      accountId: account.id,
      name: requiredString(args, 'name'),
      plan,
      ...(origin === undefined ? {} : { origin }),
    });
    if (ctx.json) ctx.out.json({ ...toJson(zone), verification_key: zone.verificationKey });
    else {
      ctx.out.line(
        `Created zone ${zone.name} (${zone.plan}) with id ${zone.id} in account "${account.name}"${zone.origin ? `, origin ${zone.origin}` : ''}`,
      );
      if (zone.status === 'pending')
        ctx.out.line(
          `The zone is pending: it overlaps another account's zone, which must add the TXT record cloudflare-verify.${zone.name} = ${zone.verificationKey} before PUT /zones/${zone.id}/activation_check lets it take traffic`,
        );
    }
    return 0;
  },
};

export const edgeZonesList: CommandSpec = {
  usesDatabase: true,
  async run(_args, ctx) {
    const { edge } = await ctx.runtime();
    const zones = await listZones(edge.deps.db);
    if (ctx.json) ctx.out.json(zones.map(toJson));
    else {
      ctx.out.line(
        table([
          ['ID', 'NAME', 'PLAN', 'STATUS', 'ACCOUNT', 'WAF UPGRADE', 'ORIGIN'],
          ...zones.map((z) => [
            z.id,
            z.name,
            z.plan,
            z.status,
            z.accountName,
            z.wafMigrationState,
            z.origin ?? '-',
          ]),
        ]),
      );
    }
    return 0;
  },
};
