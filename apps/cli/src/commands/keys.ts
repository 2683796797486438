import {
  createServiceKey,
  getOrganization,
  listServiceKeys,
  revokeServiceKey,
  type ServiceKey,
} from '@cairn/identity';
import { generateToken } from '@cairn/kit';
import { type CommandSpec, optionalString, requiredString, UsageError } from '../command.ts';
import { table } from '../output.ts';

const toJson = (k: ServiceKey) => ({
  id: k.id,
  organization_id: k.organizationId,
  app_id: k.appId,
  name: k.name,
  hint: k.hint,
  created_at: k.createdAt.toISOString(),
  revoked_at: k.revokedAt?.toISOString() ?? null,
});

export const keysCreate: CommandSpec = {
  options: { org: { type: 'string' }, name: { type: 'string' } },
  optionHelp: { org: 'organization id or name', name: 'a label for the key (default "Service key")' },
  usesDatabase: true,
  async run(args, ctx) {
    const { identity } = await ctx.runtime();
    const org = await getOrganization(identity.deps.db, requiredString(args, 'org'));
    const name = optionalString(args, 'name');
    const { key, secret } = await createServiceKey(identity.deps, {
      organizationId: org.id,
      ...(name ? { name } : {}),
    });
    if (ctx.json) ctx.out.json({ ...toJson(key), key: secret });
    else {
      ctx.out.line(
        `Created service key ${key.id} for "${org.name}". It is shown this once; store it now:\n\n  ${secret}\n`,
      );
    }
    return 0;
  },
};

export const keysList: CommandSpec = {
  options: { org: { type: 'string' } },
  optionHelp: { org: 'only this organization (id or name)' },
  usesDatabase: true,
  async run(args, ctx) {
    const { identity } = await ctx.runtime();
    const orgName = optionalString(args, 'org');
    const org = orgName ? await getOrganization(identity.deps.db, orgName) : undefined;
    const keys = await listServiceKeys(identity.deps, org?.id);
    if (ctx.json) ctx.out.json(keys.map(toJson));
    else {
      ctx.out.line(
        table([
          ['ID', 'ORGANIZATION', 'NAME', 'HINT', 'CREATED', 'STATUS'],
          ...keys.map((k) => [
            k.id,
            k.organizationId,
            k.name,
            k.hint,
            k.createdAt.toISOString(),
            k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active',
          ]),
        ]),
      );
    }
    return 0;
  },
};

export const keysRevoke: CommandSpec = {
  usage: '<key-id>',
  usesDatabase: true,
  async run(args, ctx) {
    const id = args.positionals[0];
    if (!id || args.positionals.length > 1)
      throw new UsageError('give exactly one key id (see: cairn keys list)');
    const { identity } = await ctx.runtime();
    await revokeServiceKey(identity.deps, id);
    if (ctx.json) ctx.out.json({ id, revoked: true });
    else ctx.out.line(`Revoked service key ${id}`);
    return 0;
  },
};

export const keysGenerate: CommandSpec = {
  usesDatabase: false,
  async run(_args, ctx) {
    const key = generateToken('serviceKey');
    if (ctx.json) ctx.out.json({ key });
    else ctx.out.line(key);
    return 0;
  },
};
