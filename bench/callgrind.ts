// A process run under valgrind's callgrind, whose instruction count is read between two points of a benchmark:
// `zero()` before a load, `count()` after it. Instructions do not depend on what else the machine is doing,
// where time per request does (two cores shared by client, server and everything else), so a difference of a
// few per cent between two routes can be told apart run after run.
// The count is split by thread: the main thread (the event loop: parsing, routing, the handlers, the scavenges
// of the young generation) is steady to about 1%; V8's helper threads (compiling, concurrent marking) come in
// bursts whose timing depends on the wall clock, so they are reported beside it, not mixed into it.
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface InstructionCount {
  /** Instructions of the main thread. */
  main: number;
  /** Instructions of all threads. */
  all: number;
}

export interface UnderCallgrind {
  child: ChildProcess;
  /** Sets the counters to zero. */
  zero(): void;
  /** The instructions since the last zero(). */
  count(): InstructionCount;
  stop(): void;
}

export function hasValgrind(): boolean {
  return spawnSync('valgrind', ['--version']).status === 0;
}

/** Starts `command args` under callgrind; its stdout is piped, its stderr (valgrind's) dropped. */
export function underCallgrind(command: string, args: string[], env: NodeJS.ProcessEnv): UnderCallgrind {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-callgrind-'));
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--separate-threads=yes',
      `--callgrind-out-file=${join(dir, 'out')}`,
      command,
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'], env },
  );
  let dumps = 0;
  const control = (option: string) =>
    execFileSync('callgrind_control', [option, String(child.pid)], { stdio: 'ignore' });
  return {
    child,
    zero: () => control('-z'),
    count() {
      control('-d');
      dumps++;
      // One file per thread: out.<dump>-01 is the main thread.
      const files = readdirSync(dir)
        .filter((f) => f.startsWith(`out.${dumps}-`))
        .sort();
      const counts = files.map((f) => {
        const text = readFileSync(join(dir, f), 'utf8');
        const total = /^(?:summary|totals): (\d+)/m.exec(text);
        if (!total) throw new Error(`callgrind dump ${f} has no total`);
        return Number(total[1]);
      });
      for (const f of files) rmSync(join(dir, f));
      if (counts.length === 0) throw new Error(`callgrind wrote no dump ${dumps} in ${dir}`);
      return { main: counts[0]!, all: counts.reduce((a, b) => a + b, 0) };
    },
    stop() {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
