import type { ParseArgsConfig } from 'node:util';
import type { Runtime } from './runtime.ts';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
}

/** Where a command writes: lines for people, one JSON value with --json for scripts. */
export interface Output {
  line(text: string): void;
  json(value: unknown): void;
  error(text: string): void;
}

export interface CommandContext {
  out: Output;
  json: boolean;
  /** The database and services, opened on first use (or those of the running server). */
  runtime(): Promise<Runtime>;
}

/** What a command module exports; its name and one-line description are in commands/catalogue.json. */
export interface CommandSpec {
  /** Shown after the name in --help, e.g. "<key-id>". */
  usage?: string;
  options?: OptionSpec;
  /** Help text for each option. */
  optionHelp?: Record<string, string>;
  /** Commands that open the database can be forwarded to a running server holding the embedded one. */
  usesDatabase: boolean;
  /** False for commands that cannot run inside another process (serve). */
  forwardable?: boolean;
  /**
   * Serve and migrate create the database when there is none; every other command refuses to (a typo in
   * CAIRN_DATA_DIR must not leave an empty database behind).
   */
  createsDatabase?: boolean;
  /**
   * Every word after the command that is not an option is a file path (the command has no options taking a
   * value): sent to a running server as absolute paths, since it reads them from its own working directory.
   */
  pathArguments?: boolean;
  /** Log at the configured level (the server); other commands log warnings only. */
  serverLogs?: boolean;
  run(args: ParsedArgs, ctx: CommandContext): Promise<number | undefined>;
}

/** A loaded command: its module's spec with the catalogue's words. */
export interface Command extends CommandSpec {
  /** One or more words: "keys create". */
  name: string;
  describe: string;
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function requiredString(args: ParsedArgs, name: string): string {
  const value = args.values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

export function optionalString(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}
