// The per-request budget counts the CPU time the evaluation used, never wall-clock time: on a
// starved machine a request waits longer but uses no more CPU, so load never turns into a timeout
// (and a fail-closed block). Reading the CPU clock costs about 1 µs (getrusage), so it is read
// only once the cheap wall clock has passed the budget: CPU time cannot exceed the wall time
// of a synchronous evaluation, so before that point the budget cannot be spent.
// process.cpuUsage() counts the whole process; the engine's own thread is nearly all of it.

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

export class CpuBudget {
  private readonly wallStart = performance.now();
  private readonly cpuStart = cpuMicros();

  constructor(private readonly limitMs: number) {}

  /** Whether the evaluation has used more CPU time than the budget. */
  spent(): boolean {
    if (performance.now() - this.wallStart <= this.limitMs) return false;
    return (cpuMicros() - this.cpuStart) / 1000 > this.limitMs;
  }

  /** CPU milliseconds used so far. */
  cpuMs(): number {
    return (cpuMicros() - this.cpuStart) / 1000;
  }
}
