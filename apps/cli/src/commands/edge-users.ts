import { randomBytes } from 'node:crypto';
import { createDashboardUser, ensureAccount, listDashboardUsers, resetDashboardPassword } from '@cairn/edge';
import { type CommandSpec, optionalString, requiredString } from '../command.ts';
import { table } from '../output.ts';

export const edgeUsersCreate: CommandSpec = {
  options: {
    email: { type: 'string' },
    name: { type: 'string' },
    account: { type: 'string' },
  },
  optionHelp: {
    email: 'the email to sign in with',
    name: 'the name shown in the dashboard and in the WAF upgrade history (default: the email)',
    account: 'account name (created when missing; default "Default account")',
  },
  usesDatabase: true,
  async run(args, ctx) {
    const { edge, deps } = await ctx.runtime();
    const account = await ensureAccount(edge.deps, optionalString(args, 'account'));
    const password = randomBytes(15).toString('base64url'); // 120 bits; nothing to type on a command line
    const name = optionalString(args, 'name');
    const user = await createDashboardUser(edge.deps, {
      accountId: account.id,
      email: requiredString(args, 'email'),
      ...(name === undefined ? {} : { name }),
      password,
    });
    if (ctx.json) {
      ctx.out.json({ id: user.id, email: user.email, name: user.name, account: account.name, password });
    } else {
      ctx.out.line(
        `Created the dashboard login ${user.email} for account "${account.name}". Its password, shown this once:`,
      );
      ctx.out.line('');
      ctx.out.line(`  ${password}`);
      ctx.out.line('');
      ctx.out.line(`Sign in at ${deps.config.publicUrl}/dashboard/`);
    }
    return 0;
  },
};

export const edgeUsersList: CommandSpec = {
  usesDatabase: true,
  async run(_args, ctx) {
    const { edge } = await ctx.runtime();
    const users = await listDashboardUsers(edge.deps.db);
    if (ctx.json) {
      ctx.out.json(
        users.map((u) => ({
          id: u.id,
          email: u.email,
          name: u.name,
          account_id: u.accountId,
          created_at: u.createdAt.toISOString(),
        })),
      );
    } else {
      ctx.out.line(
        table([
          ['email', 'name', 'account', 'created'],
          ...users.map((u) => [u.email, u.name, u.accountId, u.createdAt.toISOString()]),
        ]),
      );
    }
    return 0;
  },
};

export const edgeUsersResetPassword: CommandSpec = {
  options: { email: { type: 'string' } },
  optionHelp: { email: 'the login to reset' },
  usesDatabase: true,
  async run(args, ctx) {
    const { edge } = await ctx.runtime();
    const password = randomBytes(15).toString('base64url');
    const user = await resetDashboardPassword(edge.deps, { email: requiredString(args, 'email'), password });
    if (ctx.json) ctx.out.json({ id: user.id, email: user.email, password });
    else
      ctx.out.line(
        `New password for ${user.email}, shown this once (its sessions have ended):\n\n  ${password}\n`,
      );
    return 0;
  },
};
