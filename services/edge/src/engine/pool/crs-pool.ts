// The CRS worker pool: evaluates the requests that are expensive to inspect on worker threads, so that
// one slow request never holds the proxy's event loop (issue 13, point 5). One request at a time per
// worker; requests wait in a bounded queue, and one that finds the queue full is refused at once (fail
// closed) — hostile input is the normal case, and an unbounded queue is a memory and latency attack.
// A worker that dies is replaced; the request it held gets a refusal, never a hang.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { type CrsEngineOptions, type CrsProfile, profileKey } from '../crs-engines.ts';
import type { FromWorker, PoolAnswer, PooledRequest, ToWorker } from './protocol.ts';

export interface CrsPoolOptions {
  /** Worker threads. */
  workers: number;
  /** Requests waiting for a worker at most (when every worker is busy); more are refused. */
  maxQueue: number;
  engines: CrsEngineOptions;
  /** Told when a worker dies or the pool cannot start one. */
  onProblem(message: string): void;
}

interface Task {
  id: number;
  profile: CrsProfile;
  key: string;
  request: PooledRequest;
  done(answer: PoolAnswer): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** Keys of the profiles whose engines this worker has loaded. */
  loaded: Set<string>;
  dead: boolean;
  task: Task | undefined;
}

/** Consecutive workers that died before they were ready after which the pool gives up (inline again). */
const MAX_START_FAILURES = 3;

/**
 * How a worker thread starts: the bundle's worker next to it (the installed package), or this
 * checkout's TypeScript through tsx (the worker registers tsx before it imports the source).
 */
function workerSource(): { code: string | URL; eval: boolean } {
  if (!import.meta.url.endsWith('.ts'))
    return { code: new URL('./edge-waf-worker.js', import.meta.url), eval: false };
  const source = new URL(`./${'worker.ts'}`, import.meta.url).href;
  const tsx = createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  const api = new URL(`file://${tsx}`).href;
  return {
    code: `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(source)}); });`,
    eval: true,
  };
}

export class CrsPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  /** Profiles the zones' plans use, most recent last: loaded by every worker, replacements too. */
  private readonly profiles = new Map<string, CrsProfile>();
  private started = false;
  private closed = false;
  private startFailures = 0;
  private nextId = 1;
  /** Whether the pool gave up starting workers (requests are then evaluated inline). */
  broken = false;
  /** Workers started to replace one that died. */
  replaced = 0;
  /** Requests refused because the queue was full. */
  refused = 0;
  evaluated = 0;

  constructor(readonly options: CrsPoolOptions) {}

  /** Evaluates `request` with `profile`'s CRS on a worker (the workers start on the first call). */
  evaluate(profile: CrsProfile, request: PooledRequest): Promise<PoolAnswer> {
    if (this.closed || this.broken)
      return Promise.resolve({ refused: 'WAF worker pool stopped: request refused (fail closed)' });
    this.start();
    if (this.queue.length >= this.options.maxQueue && !this.slots.some((s) => !s.task && !s.dead)) {
      this.refused++;
      return Promise.resolve({ refused: 'WAF worker queue full: request refused (fail closed)' });
    }
    return new Promise((done) => {
      this.queue.push({ id: this.nextId++, profile, key: profileKey(profile), request, done });
      this.pump();
    });
  }

  /**
   * Whether every worker has loaded these profiles' engines: until then (the pool starting, a plan
   * compiled with a new profile, a worker replaced) the engine evaluates inline rather than have the
   * request wait for a load (0.3–0.6 s of CPU, seconds on a loaded machine). Starts the workers.
   */
  ready(profiles: readonly CrsProfile[]): boolean {
    this.start();
    if (this.slots.length === 0) return false;
    let ready = true;
    for (const profile of profiles) {
      const key = profileKey(profile);
      if (this.slots.every((s) => s.loaded.has(key))) continue;
      ready = false;
      if (!this.profiles.has(key)) this.warm([profile]);
    }
    return ready;
  }

  /** Has every worker load these profiles' engines (when a plan is compiled), so no request waits. */
  warm(profiles: readonly CrsProfile[]): void {
    for (const profile of profiles) {
      const key = profileKey(profile);
      const known = this.profiles.has(key);
      this.profiles.delete(key);
      this.profiles.set(key, profile);
      if (!known) for (const slot of this.slots) this.post(slot, { type: 'load', profile });
    }
    while (this.profiles.size > this.options.engines.maxEngines) {
      const oldest = this.profiles.keys().next().value;
      if (oldest === undefined) break;
      this.profiles.delete(oldest);
    }
  }

  /** Workers evaluating a request now. */
  get busy(): number {
    return this.slots.filter((s) => s.task !== undefined).length;
  }

  get workers(): number {
    return this.slots.length;
  }

  /**
   * Stops the workers that are evaluating a request now, as if they had crashed: their requests are
   * refused (fail closed) and the workers replaced. For tests and operators (a stuck worker).
   */
  terminateBusy(): number {
    const busy = this.slots.filter((s) => s.task !== undefined);
    for (const slot of busy) {
      this.retire(slot, 'WAF worker stopped while evaluating the request: refused (fail closed)');
      void slot.worker.terminate();
    }
    return busy.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0))
      task.done({ refused: 'WAF worker pool stopped: request refused (fail closed)' });
    const slots = this.slots.splice(0);
    for (const slot of slots) {
      slot.dead = true;
      slot.task?.done({ refused: 'WAF worker pool stopped: request refused (fail closed)' });
      slot.task = undefined;
    }
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    for (let i = 0; i < this.options.workers; i++) this.spawn();
  }

  private spawn(): void {
    const source = workerSource();
    const worker = new Worker(source.code, { eval: source.eval, workerData: this.options.engines });
    worker.unref();
    const slot: Slot = { worker, ready: false, loaded: new Set(), dead: false, task: undefined };
    this.slots.push(slot);
    for (const profile of this.profiles.values()) this.post(slot, { type: 'load', profile });
    worker.on('message', (message: FromWorker) => this.answer(slot, message));
    worker.on('error', (error) => {
      if (!slot.dead) this.options.onProblem(`WAF worker failed: ${error.message}`);
    });
    worker.on('exit', (code) => {
      if (slot.dead) return;
      if (!slot.ready) this.startFailures++;
      this.options.onProblem(`WAF worker exited (code ${code}); ${this.closed ? 'pool closed' : 'replaced'}`);
      this.retire(slot, 'WAF worker stopped while evaluating the request: refused (fail closed)');
    });
  }

  /** Takes a dead worker out, refuses its request, and starts another (unless starting keeps failing). */
  private retire(slot: Slot, reason: string): void {
    slot.dead = true;
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    slot.task?.done({ refused: reason });
    slot.task = undefined;
    if (this.closed) return;
    if (this.startFailures >= MAX_START_FAILURES) {
      this.broken = true;
      this.options.onProblem('WAF workers cannot start: requests are evaluated inline');
      for (const task of this.queue.splice(0)) task.done({ refused: reason });
      return;
    }
    this.replaced++;
    this.spawn();
    this.pump();
  }

  private answer(slot: Slot, message: FromWorker): void {
    if (slot.dead) return;
    if (message.type === 'ready') {
      slot.ready = true;
      this.startFailures = 0;
      return;
    }
    if (message.type === 'loaded') {
      slot.loaded.add(message.key);
      return;
    }
    const task = slot.task;
    if (!task || task.id !== message.id) return;
    slot.task = undefined;
    this.evaluated++;
    if (message.type === 'result') slot.loaded.add(task.key);
    task.done(
      message.type === 'result'
        ? message.result
        : { refused: `WAF worker error: ${message.message}: request refused (fail closed)` },
    );
    this.pump();
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.task || slot.dead) continue;
      const task = this.queue.shift() as Task;
      slot.task = task;
      this.post(slot, { type: 'evaluate', id: task.id, profile: task.profile, request: task.request });
    }
  }

  private post(slot: Slot, message: ToWorker): void {
    if (message.type === 'evaluate' && message.request.body) {
      slot.worker.postMessage(message, [message.request.body.buffer as ArrayBuffer]);
    } else slot.worker.postMessage(message);
  }
}
