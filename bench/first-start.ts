// First start to ready: `cairn serve` on a new, empty data directory (the embedded database, the default demo
// places), timed from the spawn to the first /readyz that answers 200. Prints each round and the median, and
// the demo generation time the server itself reports when it generated them at start.
//   node --import tsx bench/first-start.ts [rounds=3]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const rounds = Number(process.argv[2] ?? 3);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function ready(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).status === 200;
  } catch {
    return false;
  }
}

/** CPU seconds a process has used (Linux /proc: user + system, at 100 ticks a second), for a loaded machine. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function firstStart(): Promise<{ ms: number; cpu: number; generated: string | undefined }> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-first-start-'));
  const port = await freePort();
  const env = {
    ...process.env,
    CAIRN_DATA_DIR: dir,
    DATABASE_URL: '',
    PORT: String(port),
    EDGE_PORT: String(await freePort()),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  const started = performance.now();
  const proc = spawn(process.execPath, ['apps/cli/bin/cairn.js', 'serve'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
  let exited = false;
  proc.on('exit', () => (exited = true));
  try {
    while (!(await ready(`http://127.0.0.1:${port}/readyz`))) {
      if (exited) throw new Error(`cairn serve exited before ready:\n${out}`);
      await sleep(25);
    }
    const ms = performance.now() - started;
    return {
      ms,
      cpu: cpuSeconds(proc.pid!),
      generated: /Generated [\d,]+ demo places in [\d.]+ s|Loaded [^\n]*/.exec(out)?.[0],
    };
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => (exited ? r(undefined) : proc.on('exit', r)));
    rmSync(dir, { recursive: true, force: true });
  }
}

const times: number[] = [];
const cpus: number[] = [];
for (let i = 0; i < rounds; i++) {
  const { ms, cpu, generated } = await firstStart();
  times.push(ms);
  cpus.push(cpu);
  process.stdout.write(
    `round ${i + 1}: ready in ${(ms / 1000).toFixed(2)} s (${cpu.toFixed(2)} s CPU)${generated ? ` (${generated})` : ''}\n`,
  );
}
times.sort((a, b) => a - b);
cpus.sort((a, b) => a - b);
process.stdout.write(
  `first start to ready, median of ${rounds}: ${(times[Math.floor(rounds / 2)]! / 1000).toFixed(2)} s wall, ${cpus[Math.floor(rounds / 2)]!.toFixed(2)} s CPU\n`,
);
