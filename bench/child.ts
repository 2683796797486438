// Benchmarks run their servers in child processes (so each has its own core and event loop). A child
// prints one JSON line (its port and what else the parent needs) once it is ready.
import { spawn } from 'node:child_process';

/** Runs `script` (TypeScript, through tsx) with `args`; resolves with the first JSON line it prints. */
export function startChild<T>(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ info: T; pid: number; kill(): void }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let ready = false;
    proc.stdout.on('data', (c: Buffer) => {
      // once ready, what the child prints (its warnings and errors) goes to standard error
      if (ready) {
        process.stderr.write(c);
        return;
      }
      out += c.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      ready = true;
      const rest = out.slice(out.indexOf(line) + line.length + 1);
      if (rest) process.stderr.write(rest);
      resolve({ info: JSON.parse(line) as T, pid: proc.pid as number, kill: () => proc.kill('SIGTERM') });
    });
    proc.on('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
}
