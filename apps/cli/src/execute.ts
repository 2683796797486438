import { parseArgs } from 'node:util';
import { CairnError, type Config, ConfigError, DataDirInUseError } from '@cairn/kit';
import { type Command, type CommandContext, type Output, type ParsedArgs, UsageError } from './command.ts';
import { catalogue, loadCommand } from './commands/index.ts';
import { groupHelp, groupMembers, helpOnly, overview } from './help.js';
import type { Runtime } from './runtime.ts';

/** Finds the command named by the leading words of argv ("keys create …"), longest name first, and loads it. */
export async function findCommand(argv: string[]): Promise<{ command: Command; rest: string[] } | undefined> {
  const sorted = [...catalogue].sort((a, b) => b.name.split(' ').length - a.name.split(' ').length);
  for (const entry of sorted) {
    const words = entry.name.split(' ');
    if (words.every((w, i) => argv[i] === w)) {
      return { command: await loadCommand(entry), rest: argv.slice(words.length) };
    }
  }
  return undefined;
}

/** The help of the longest group argv starts with ("edge zones", "edge"), or the overview. */
function nearestHelp(argv: string[]): string {
  for (let n = argv.length; n > 0; n--) {
    const words = argv.slice(0, n);
    if (groupMembers(catalogue, words).length > 0) return groupHelp(catalogue, words);
  }
  return overview(catalogue);
}

export function commandHelp(command: Command): string {
  const lines = [
    `Usage: cairn ${command.name}${command.usage ? ` ${command.usage}` : ''} [options]`,
    '',
    command.describe,
    '',
  ];
  const options: [string, string][] = Object.entries(command.options ?? {}).map(([name, spec]) => [
    `--${name}${spec.type === 'string' ? ' <value>' : ''}`,
    command.optionHelp?.[name] ?? '',
  ]);
  options.push(['--json', 'print machine-readable JSON'], ['--help', 'show this help']);
  const width = Math.max(...options.map(([o]) => o.length));
  lines.push('Options:', ...options.map(([o, h]) => `  ${o.padEnd(width)}  ${h}`));
  return lines.join('\n');
}

export function parseCommandArgs(
  command: Command,
  rest: string[],
): ParsedArgs & { help: boolean; json: boolean } {
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      options: { ...command.options, help: { type: 'boolean', short: 'h' }, json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
    return { values, positionals, help: values.help === true, json: values.json === true };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Runs one command; returns the exit code. Errors become one line on stderr. */
export async function execute(argv: string[], out: Output, runtime: () => Promise<Runtime>): Promise<number> {
  const help = helpOnly(argv, catalogue);
  if (help) {
    if (help.stream === 'stdout') out.line(help.text);
    else out.error(help.text);
    return help.code;
  }
  const found = await findCommand(argv);
  if (!found) {
    out.error(`error: unknown command "${argv.join(' ')}"\n\n${nearestHelp(argv)}`);
    return 2;
  }
  try {
    const args = parseCommandArgs(found.command, found.rest);
    if (args.help) {
      out.line(commandHelp(found.command));
      return 0;
    }
    const ctx: CommandContext = { out, json: args.json, runtime };
    return (await found.command.run(args, ctx)) ?? 0;
  } catch (error) {
    return reportError(error, out, found.command);
  }
}

export function reportError(error: unknown, out: Output, command?: Command): number {
  if (error instanceof UsageError) {
    out.error(`error: ${error.message}${command ? ` (see: cairn ${command.name} --help)` : ''}`);
    return 2;
  }
  if (error instanceof CairnError || error instanceof ConfigError || error instanceof DataDirInUseError) {
    out.error(`error: ${error.message}`);
    return 1;
  }
  out.error(`error: ${(error as Error)?.message ?? String(error)}`);
  return 1;
}

export type { Config };
