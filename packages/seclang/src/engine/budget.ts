// The per-request budget counts the CPU time the evaluation used, never wall-clock time: on a
// starved machine a request waits longer but uses no more CPU, so load never turns into a timeout
// (and a fail-closed block). The clock is this thread's run time: on Linux the first field of
// /proc/thread-self/schedstat (nanoseconds), read through a descriptor kept open (under 1 µs a
// reading); elsewhere process.cpuUsage(), which also counts V8's compiler and GC threads. The CPU
// time of a synchronous evaluation cannot exceed its wall time, so the cheap wall clock gates the
// readings between rules.

import { closeSync, openSync, readSync } from 'node:fs';

const buffer = Buffer.alloc(64);

function openSchedstat(): number | undefined {
  try {
    const fd = openSync('/proc/thread-self/schedstat', 'r');
    if (readSync(fd, buffer, 0, buffer.length, 0) > 0 && buffer[0]! >= 0x30 && buffer[0]! <= 0x39) return fd;
    closeSync(fd);
  } catch {
    // not Linux, or no procfs
  }
  return undefined;
}

const schedstat = openSchedstat();

/** This thread's CPU time in microseconds (the process's where the thread's is not available). */
export function cpuMicros(): number {
  if (schedstat === undefined) {
    const { user, system } = process.cpuUsage();
    return user + system;
  }
  const n = readSync(schedstat, buffer, 0, buffer.length, 0);
  let ns = 0;
  for (let i = 0; i < n; i++) {
    const c = buffer[i]!;
    if (c < 0x30 || c > 0x39) break;
    ns = ns * 10 + (c - 0x30);
  }
  return ns / 1000;
}

export class CpuBudget {
  private readonly cpuStart = cpuMicros();
  /** Wall-clock time before which the budget cannot be spent. */
  private nextCheck: number;

  constructor(private readonly limitMs: number) {
    this.nextCheck = performance.now() + limitMs;
  }

  /** Whether the evaluation has used more CPU time than the budget. */
  spent(): boolean {
    const now = performance.now();
    if (now <= this.nextCheck) return false;
    const used = (cpuMicros() - this.cpuStart) / 1000;
    if (used > this.limitMs) return true;
    this.nextCheck = now + (this.limitMs - used);
    return false;
  }
}
