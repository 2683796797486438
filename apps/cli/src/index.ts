import { execute } from './execute.ts';
import { bufferedOutput } from './output.ts';
import type { Runtime } from './runtime.ts';

export { main } from './main.ts';
export { openRuntime, type Runtime } from './runtime.ts';

/**
 * Runs one cairn command (argv as typed after `cairn`) on services the caller already has — a test's
 * fixture, or a program embedding Cairn — instead of opening the database; returns the exit code and
 * what the command printed. `runtime` needs only the services the command uses.
 */
export async function runCommand(
  argv: string[],
  runtime: Partial<Runtime>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const buffer = bufferedOutput();
  const code = await execute(argv, buffer.out, async () => runtime as Runtime);
  return { code, stdout: buffer.stdout(), stderr: buffer.stderr() };
}
