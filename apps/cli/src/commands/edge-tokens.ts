import {
  type ApiToken,
  AREA_HELP,
  AREAS,
  createApiToken,
  findZone,
  findZoneByName,
  getAccount,
  isHexId,
  listApiTokens,
  parsePermissions,
  revokeApiToken,
} from '@cairn/edge';
import { type CommandSpec, optionalString, type ParsedArgs, UsageError } from '../command.ts';
import { table } from '../output.ts';

const toJson = (t: ApiToken) => ({
  id: t.id,
  account_id: t.accountId,
  name: t.name,
  hint: t.hint,
  grants: t.grants.map((g) => ({ zone: g.zoneId, permission: g.permission })),
  created_at: t.createdAt.toISOString(),
  revoked_at: t.revokedAt?.toISOString() ?? null,
});

function listOption(args: ParsedArgs, name: string): string[] {
  const raw = args.values[name];
  const values = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
  return values
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

export const edgeTokensCreate: CommandSpec = {
  options: {
    zone: { type: 'string', multiple: true },
    permissions: { type: 'string' },
    name: { type: 'string' },
    account: { type: 'string' },
  },
  optionHelp: {
    zone: 'zone name or id (repeat or comma-separate; * = every zone of the account)',
    permissions: `comma-separated: read, edit, or <area>:read|edit with area ${AREAS.join(', ')}`,
    name: 'a label for the token',
    account: 'the account for --zone * (name or id; default "Default account")',
  },
  usesDatabase: true,
  async run(args, ctx) {
    const zones = listOption(args, 'zone');
    if (zones.length === 0)
      throw new UsageError('--zone is required (a zone name or id, or * for every zone)');
    const permissions = parsePermissions(listOption(args, 'permissions'));
    if (typeof permissions === 'string') {
      throw new UsageError(
        `--permissions: ${permissions}\n${AREAS.map((a) => `  ${a}: ${AREA_HELP[a]}`).join('\n')}`,
      );
    }
    const { edge } = await ctx.runtime();
    const zoneIds: string[] = [];
    const accounts = new Set<string>();
    for (const z of zones) {
      if (z === '*') {
        zoneIds.push('*');
        continue;
      }
      const zone = /^[0-9a-f]{32}$/.test(z)
        ? await findZone(edge.deps.db, z)
        : await findZoneByName(edge.deps.db, z.toLowerCase());
      if (!zone) throw new UsageError(`no zone "${z}" (see: cairn edge zones list)`);
      zoneIds.push(zone.id);
      accounts.add(zone.accountId);
    }
    const accountName = optionalString(args, 'account');
    if (accountName) accounts.add((await getAccount(edge.deps.db, accountName)).id);
    if (accounts.size === 0) accounts.add((await getAccount(edge.deps.db, 'Default account')).id);
    if (accounts.size > 1) throw new UsageError('a token belongs to one account: give zones of one account');
    const { token, secret } = await createApiToken(edge.deps, {
      accountId: [...accounts][0]!,
      name: optionalString(args, 'name') ?? 'API token',
      zoneIds,
      permissions,
    });
    if (ctx.json) ctx.out.json({ ...toJson(token), token: secret });
    else {
      ctx.out.line(
        `Created API token ${token.id} (${permissions.join(', ')} on ${zones.join(', ')}). It is shown this once; store it now:\n\n  ${secret}\n`,
      );
    }
    return 0;
  },
};

export const edgeTokensList: CommandSpec = {
  usesDatabase: true,
  async run(_args, ctx) {
    const { edge } = await ctx.runtime();
    const tokens = await listApiTokens(edge.deps);
    if (ctx.json) ctx.out.json(tokens.map(toJson));
    else {
      ctx.out.line(
        table([
          ['ID', 'NAME', 'HINT', 'GRANTS', 'STATUS'],
          ...tokens.map((t) => [
            t.id,
            t.name,
            t.hint,
            [...new Set(t.grants.map((g) => `${g.zoneId}:${g.permission}`))].join(' '),
            t.revokedAt ? 'revoked' : 'active',
          ]),
        ]),
      );
    }
    return 0;
  },
};

export const edgeTokensRevoke: CommandSpec = {
  usage: '<token-id>',
  usesDatabase: true,
  async run(args, ctx) {
    const id = args.positionals[0];
    if (!id || args.positionals.length > 1 || !isHexId(id)) {
      throw new UsageError('give exactly one token id (see: cairn edge tokens list)');
    }
    const { edge } = await ctx.runtime();
    if (!(await revokeApiToken(edge.deps, id))) throw new UsageError(`no live API token ${id}`);
    if (ctx.json) ctx.out.json({ id, revoked: true });
    else ctx.out.line(`Revoked API token ${id}`);
    return 0;
  },
};
