import type { CommandSpec } from '../command.ts';

export const migrateCommand: CommandSpec = {
  usesDatabase: true,
  createsDatabase: true,
  async run(_args, ctx) {
    const runtime = await ctx.runtime();
    const { rows } = await runtime.deps.db.query<{ id: string; applied_at: Date }>(
      'SELECT id, applied_at FROM cairn_migrations ORDER BY applied_at, id',
    );
    if (ctx.json) ctx.out.json(rows.map((r) => ({ id: r.id, applied_at: r.applied_at.toISOString() })));
    else ctx.out.line(`${rows.length} migrations applied:\n${rows.map((r) => `  ${r.id}`).join('\n')}`);
    return 0;
  },
};
