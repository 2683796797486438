import { createOrganization, listOrganizations, type Organization } from '@cairn/identity';
import { type Command, requiredString } from '../command.ts';
import { table } from '../output.ts';

const toJson = (o: Organization) => ({ id: o.id, name: o.name, created_at: o.createdAt.toISOString() });

export const orgsCreate: Command = {
  name: 'orgs create',
  describe: 'Create an organization',
  options: { name: { type: 'string' } },
  optionHelp: { name: 'the organization name (unique)' },
  usesDatabase: true,
  async run(args, ctx) {
    const { identity } = await ctx.runtime();
    const org = await createOrganization(identity.deps, requiredString(args, 'name'));
    if (ctx.json) ctx.out.json(toJson(org));
    else ctx.out.line(`Created organization "${org.name}" with id ${org.id}`);
    return 0;
  },
};

export const orgsList: Command = {
  name: 'orgs list',
  describe: 'List organizations',
  usesDatabase: true,
  async run(_args, ctx) {
    const { identity } = await ctx.runtime();
    const orgs = await listOrganizations(identity.deps.db);
    if (ctx.json) ctx.out.json(orgs.map(toJson));
    else
      ctx.out.line(
        table([['ID', 'NAME', 'CREATED'], ...orgs.map((o) => [o.id, o.name, o.createdAt.toISOString()])]),
      );
    return 0;
  },
};
