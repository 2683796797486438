import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../bin/cairn.js', import.meta.url));

/** Runs `cairn …` in a child process and collects its output. */
export function runCli(args: string[], env: Record<string, string | undefined>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts `cairn serve` and resolves once it is listening, with its URL and everything it printed so far. */
export function startServe(env: Record<string, string | undefined>) {
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: { ...process.env, PORT: '0', EDGE_PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise<{
    child: ChildProcess;
    baseUrl: string;
    output: () => string;
    exited: Promise<number | null>;
  }>((resolve, reject) => {
    let output = '';
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        // Give the banner that follows the first line a moment to arrive.
        setTimeout(() => resolve({ child, baseUrl: match[1]!, output: () => output, exited }), 200);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${output}`));
    });
  });
}
