import { generatePlaces, importPlacesFile, MAX_GENERATE, type Places } from '@cairn/places';
import type { CommandContext, Output } from '../command.ts';
import { type CommandSpec, optionalString, UsageError } from '../command.ts';

/**
 * Re-reads categories and chains and tells running servers to. The places are written already: a failure
 * here is a warning with what to do, not a failed command.
 */
async function reloadRunningServers(places: Pick<Places, 'reload'>, ctx: CommandContext) {
  try {
    await places.reload();
  } catch (error) {
    ctx.out.error(
      `warning: the places are written, but running servers were not told to re-read categories and chains (${error instanceof Error ? error.message : String(error)}); restart them to see new ones`,
    );
  }
}

/**
 * Progress of a long run: a bar with rate and ETA when this process writes to a terminal, plain lines (every
 * 10%) otherwise — in logs, in CI, or when the command runs inside the server that holds the database.
 */
function progress(out: Output, label: string, total: number) {
  const direct = process.argv.slice(2, 4).join(' ') === `places ${label}`;
  const tty = direct && process.stderr.isTTY === true;
  const started = Date.now();
  let lastTenth = 0;
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`;
  return {
    update(done: number) {
      const seconds = Math.max(0.001, (Date.now() - started) / 1000);
      const rate = done / seconds;
      const eta = rate > 0 ? (total - done) / rate : 0;
      if (tty) {
        const width = 30;
        const filled = Math.round((done / total) * width);
        process.stderr.write(
          `\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${Math.floor((done / total) * 100)}% ${fmt(done)}/${fmt(total)}  ${fmt(rate)}/s  ETA ${clock(eta)}  `,
        );
        if (done >= total) process.stderr.write('\n');
        return;
      }
      const tenth = Math.floor((done / total) * 10);
      if (tenth > lastTenth || done >= total) {
        lastTenth = tenth;
        out.error(
          `${label}: ${fmt(done)} of ${fmt(total)} (${Math.floor((done / total) * 100)}%), ${fmt(rate)}/s, ETA ${clock(eta)}`,
        );
      }
    },
  };
}

export const placesGenerate: CommandSpec = {
  options: { count: { type: 'string' }, seed: { type: 'string' } },
  optionHelp: { count: 'how many places (required)', seed: 'any text; default "1"' },
  usesDatabase: true,
  async run(args, ctx) {
    const countText = optionalString(args, 'count');
    if (!countText || !/^\d+$/.test(countText) || Number(countText) < 1 || Number(countText) > MAX_GENERATE) {
      throw new UsageError(`--count must be an integer from 1 to ${MAX_GENERATE.toLocaleString('en-US')}`);
    }
    const count = Number(countText);
    const seed = optionalString(args, 'seed') ?? '1';
    const runtime = await ctx.runtime();
    const bar = progress(ctx.out, 'generate', count);
    const result = await generatePlaces(runtime.deps.db, {
      count,
      seed,
      onProgress: (done) => bar.update(done),
    });
    await reloadRunningServers(runtime.places, ctx);
    const rate = Math.round(result.written / (result.ms / 1000));
    if (ctx.json)
      ctx.out.json({ generated: result.written, seed, seconds: result.ms / 1000, per_second: rate });
    else {
      ctx.out.line(
        `Generated ${result.written.toLocaleString('en-US')} places (seed "${seed}") in ${(result.ms / 1000).toFixed(1)} s, ${rate.toLocaleString('en-US')}/s`,
      );
    }
    return 0;
  },
};

export const placesImport: CommandSpec = {
  usage: '<file>',
  options: { 'max-bad': { type: 'string' }, strict: { type: 'boolean' } },
  optionHelp: {
    'max-bad': 'roll back (import nothing) when more rows than this are bad; default: skip and report them',
    strict: 'the same as --max-bad 0',
  },
  usesDatabase: true,
  async run(args, ctx) {
    const file = args.positionals[0];
    if (!file || args.positionals.length > 1) throw new UsageError('give exactly one file');
    const maxBadText = optionalString(args, 'max-bad');
    if (maxBadText !== undefined && !/^\d+$/.test(maxBadText))
      throw new UsageError('--max-bad must be an integer');
    const maxBad =
      args.values.strict === true ? 0 : maxBadText === undefined ? undefined : Number(maxBadText);
    const runtime = await ctx.runtime();
    const result = await importPlacesFile(runtime.deps.db, file, {
      ...(maxBad === undefined ? {} : { maxBad }),
      onProgress: (rows) => ctx.out.error(`import: ${rows.toLocaleString('en-US')} rows read`),
    });
    await reloadRunningServers(runtime.places, ctx);
    if (ctx.json) {
      ctx.out.json({
        format: result.format,
        imported: result.imported,
        bad: result.bad,
        bad_rows: result.badRows,
        categories_added: result.categoriesAdded,
        seconds: result.ms / 1000,
      });
      return 0;
    }
    ctx.out.line(
      `Imported ${result.imported.toLocaleString('en-US')} places from ${file} (${result.format}) in ${(result.ms / 1000).toFixed(1)} s` +
        (result.categoriesAdded > 0 ? `; ${result.categoriesAdded} new categories` : ''),
    );
    if (result.bad > 0) {
      ctx.out.line(`Skipped ${result.bad.toLocaleString('en-US')} bad row(s):`);
      for (const b of result.badRows.slice(0, 20)) ctx.out.line(`  ${b.where}: ${b.reason}`);
      if (result.bad > 20) ctx.out.line(`  … and ${result.bad - 20} more (--json lists the first 100)`);
    }
    return 0;
  },
};
