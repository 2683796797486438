import { resolve } from 'node:path';
import type { CommandSpec } from '../command.ts';
import { UsageError } from '../command.ts';
import { applyFixtures, readFixtures } from '../fixtures.ts';

export const fixturesLoad: CommandSpec = {
  usage: '<file.yaml>',
  usesDatabase: true,
  pathArguments: true,
  async run(args, ctx) {
    const file = args.positionals[0];
    if (!file || args.positionals.length > 1) throw new UsageError('give exactly one fixture file');
    // The whole file is checked before the database is opened; a bad one changes nothing.
    const fixtures = readFixtures(resolve(file));
    const runtime = await ctx.runtime();
    const summary = await applyFixtures(runtime, fixtures);
    try {
      await runtime.places.reload();
    } catch {
      // Running servers re-read categories and chains at their next reload; the data is written.
    }
    if (ctx.json) ctx.out.json(summary);
    else {
      const parts = Object.entries(summary)
        .filter(([, n]) => n > 0)
        .map(([what, n]) => `${n} ${what.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)}`);
      ctx.out.line(`Loaded ${file}: ${parts.length > 0 ? parts.join(', ') : 'nothing to create'}`);
    }
    return 0;
  },
};
