import { parseArgs } from 'node:util';
import { CairnError, type Config, ConfigError, DataDirInUseError } from '@cairn/kit';
import { type Command, type CommandContext, type Output, type ParsedArgs, UsageError } from './command.ts';
import { commands } from './commands/index.ts';
import type { Runtime } from './runtime.ts';

/** Finds the command named by the leading words of argv ("keys create …"), longest name first. */
export function findCommand(argv: string[]): { command: Command; rest: string[] } | undefined {
  const sorted = [...commands].sort((a, b) => b.name.split(' ').length - a.name.split(' ').length);
  for (const command of sorted) {
    const words = command.name.split(' ');
    if (words.every((w, i) => argv[i] === w)) return { command, rest: argv.slice(words.length) };
  }
  return undefined;
}

export function overview(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Usage: cairn <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.describe}`),
    '',
    'Every command takes --help; commands that print data take --json.',
  ].join('\n');
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
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    out.line(overview());
    return argv.length === 0 ? 2 : 0;
  }
  const found = findCommand(argv);
  if (!found) {
    out.error(`error: unknown command "${argv.join(' ')}"\n\n${overview()}`);
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
