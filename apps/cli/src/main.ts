import { resolve } from 'node:path';
import { type Config, createLogger, loadConfig, lockHolder } from '@cairn/kit';
import { forwardToServer } from './admin-socket.ts';
import { execute, findCommand, reportError } from './execute.ts';
import { consoleOutput } from './output.ts';
import type { Runtime } from './runtime.ts';
import { createSandboxClock } from './sandbox/clock.ts';
import { sandboxMode } from './sandbox/database.ts';
import { freePort } from './workers.ts';

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const out = consoleOutput();
  let config: Readonly<Config>;
  let sandbox: boolean;
  try {
    config = loadConfig(env);
    sandbox = sandboxMode(env);
  } catch (error) {
    return reportError(error, out);
  }

  const found = await findCommand(argv);
  // PORT=0 asks for any free port; pick it now so that PUBLIC_URL (the OAuth issuer) names the real one.
  if (found?.command.name === 'serve' && config.port === 0) {
    config = loadConfig({ ...env, PORT: String(await freePort(config.host)) });
  }
  const wantsHelp = argv.includes('--help') || argv.includes('-h');
  if (
    found?.command.usesDatabase &&
    found.command.forwardable !== false &&
    !wantsHelp &&
    !config.databaseUrl &&
    lockHolder(config.dataDir) !== undefined
  ) {
    try {
      // The server runs the command in its own working directory: file arguments go as absolute paths.
      const forwarded = found.command.pathArguments
        ? [
            ...argv.slice(0, argv.length - found.rest.length),
            ...found.rest.map((a) => (a.startsWith('-') ? a : resolve(a))),
          ]
        : argv;
      const result = await forwardToServer(config.dataDir, forwarded);
      process.stdout.write(result.stdout);
      process.stderr.write(result.stderr);
      return result.code;
    } catch {
      // No admin socket answered: fall through, and opening the database will say who holds it.
    }
  }

  const firstStartDump = (m: typeof import('./demo-database.ts')) => {
    const dir = m.demoDatabaseDir(env);
    return dir ? { initialDataDir: dir } : {};
  };
  let runtime: Runtime | undefined;
  try {
    return await execute(argv, out, async () => {
      // Loaded here, not at the top: it imports every service, which only commands that open the
      // database need.
      const { openRuntime } = await import('./runtime.ts');
      runtime ??= await openRuntime(config, {
        create: found?.command.createsDatabase === true,
        // A server logs to standard output; any other command's standard output is its answer (JSON with
        // --json), so its warnings go to standard error.
        log: found?.command.serverLogs ? createLogger(config.logLevel) : createLogger('warn', process.stderr),
        // CAIRN_SANDBOX=1: serve runs on a sandbox clock, on a database created in sandbox mode only.
        ...(sandbox && found?.command.name === 'serve' ? { sandbox: true, clock: createSandboxClock() } : {}),
        // A first serve (not in sandbox mode) starts from the demo database built at install, if there is one.
        ...(!sandbox && found?.command.name === 'serve'
          ? firstStartDump(await import('./demo-database.ts'))
          : {}),
      });
      return runtime;
    });
  } finally {
    await runtime?.close();
  }
}
