import {
  addMember,
  createOrganization,
  getOrganization,
  listOrganizations,
  type Organization,
} from '@cairn/identity';
import { type CommandSpec, optionalString, requiredString, UsageError } from '../command.ts';
import { table } from '../output.ts';

const toJson = (o: Organization) => ({ id: o.id, name: o.name, created_at: o.createdAt.toISOString() });

export const orgsCreate: CommandSpec = {
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

export const orgsList: CommandSpec = {
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

export const orgsAddMember: CommandSpec = {
  options: { org: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } },
  optionHelp: {
    org: 'organization id or name',
    email: 'the email the person signed up with',
    role: 'member (default) or owner',
  },
  usesDatabase: true,
  async run(args, ctx) {
    const role = optionalString(args, 'role') ?? 'member';
    if (role !== 'member' && role !== 'owner') throw new UsageError('--role must be member or owner');
    const { identity } = await ctx.runtime();
    const org = await getOrganization(identity.deps.db, requiredString(args, 'org'));
    const email = requiredString(args, 'email');
    const { userId } = await addMember(identity.deps, org.id, email, role);
    if (ctx.json) ctx.out.json({ organization_id: org.id, user_id: userId, role });
    else ctx.out.line(`${email} is now ${role === 'owner' ? 'an owner' : 'a member'} of "${org.name}"`);
    return 0;
  },
};
