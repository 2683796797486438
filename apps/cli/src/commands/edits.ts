import { rollbackEdit } from '@cairn/places';
import { type CommandSpec, optionalString, UsageError } from '../command.ts';

/**
 * `cairn edits rollback <edit-id>`: undoes an accepted suggested edit (services/places/README.md, "Suggested
 * edits, votes and trust"). Refused, naming them, when later accepted edits changed the same data, unless
 * --cascade rolls those back too (newest first, in one transaction).
 */
export const editsRollback: CommandSpec = {
  usage: '<edit-id>',
  options: { reason: { type: 'string' }, cascade: { type: 'boolean' } },
  optionHelp: {
    reason: 'why, kept with the edit (default "rolled back by an operator")',
    cascade: 'also roll back later accepted edits that changed the same data, newest first',
  },
  usesDatabase: true,
  async run(args, ctx) {
    const id = args.positionals[0];
    if (!id || args.positionals.length > 1) throw new UsageError('give exactly one suggested edit id');
    const { places } = await ctx.runtime();
    try {
      places.deps.reference();
    } catch {
      await places.reload();
    }
    const reason = optionalString(args, 'reason');
    const result = await rollbackEdit(places.deps, id, {
      ...(reason ? { reason } : {}),
      cascade: args.values.cascade === true,
    });
    if (ctx.json) ctx.out.json(result);
    else {
      const [requested, ...others] = [...result.rolled_back].reverse();
      ctx.out.line(`Rolled back suggested edit ${requested}`);
      if (others.length > 0)
        ctx.out.line(`Also rolled back, as later edits of the same data: ${others.join(', ')}`);
    }
    return 0;
  },
};
