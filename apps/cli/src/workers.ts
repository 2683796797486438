import cluster, { type Worker } from 'node:cluster';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { ConfigError, type Logger, servingFlags } from '@cairn/kit';

/**
 * `cairn serve` on every core: a primary process forks CAIRN_WORKERS workers (node:cluster), which share
 * the API port and the edge proxy port (the primary accepts connections and hands them out in turn).
 * The primary serves nothing itself; it does what must happen once (migrations, the demo organization and
 * places, the demo zone) and watches the workers: one that exits unasked is replaced, and on SIGTERM every
 * worker drains and stops. Each worker keeps its own caches, kept right by PostgreSQL NOTIFY — so workers
 * need PostgreSQL (DATABASE_URL); the embedded database is held by one process.
 */

/** The most workers CAIRN_WORKERS may ask for. */
const MAX_WORKERS = 256;

/** CAIRN_WORKERS: a number of processes, or `auto` (the default): one per core. */
export function workerCount(env: Record<string, string | undefined> = process.env): number {
  const raw = env.CAIRN_WORKERS;
  if (raw === undefined || raw === '' || raw === 'auto') return availableParallelism();
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_WORKERS)
    throw new ConfigError(
      'CAIRN_WORKERS',
      `expected auto or an integer from 1 to ${MAX_WORKERS}, got "${raw}"`,
    );
  return Number(raw);
}

/** True in a process forked by the primary. */
export const isWorker = (): boolean => cluster.isWorker;

/** What a worker tells the primary once it serves. */
export interface WorkerReady {
  address: string;
  proxyAddress: string;
  pid: number;
}

interface ReadyMessage extends WorkerReady {
  cairn: 'ready';
}

const isReady = (m: unknown): m is ReadyMessage =>
  typeof m === 'object' && m !== null && (m as { cairn?: unknown }).cairn === 'ready';

/** In a worker: says the primary it serves. */
export function announceReady(info: Omit<WorkerReady, 'pid'>): void {
  process.send?.({ cairn: 'ready', pid: process.pid, ...info } satisfies ReadyMessage);
}

/**
 * In a worker that has stopped serving: closes the channel to the primary, which would otherwise keep the
 * process alive once everything else is closed.
 */
export function leaveCluster(): void {
  cluster.worker?.disconnect();
}

/** The worker's number (1, 2, …; a replacement gets the next), or undefined outside a cluster. */
export const workerId = (): number | undefined => cluster.worker?.id;

export interface Workers {
  /**
   * Resolves once one worker serves (the primary hands connections only to workers that listen, so the
   * ports are served from then on); rejects if a worker of the first start exits before it serves.
   */
  first: Promise<WorkerReady>;
  /** Resolves once each of the first `count` workers serves; rejects as `first` does. */
  ready: Promise<WorkerReady[]>;
  /** Workers started since, replacing ones that exited. */
  readonly restarts: number;
  /** The live workers' process ids. */
  pids(): number[];
  /**
   * Asks every worker to stop (SIGTERM: each drains and closes), and resolves when all have exited;
   * after `graceMs` the ones left are killed.
   */
  stop(graceMs: number): Promise<void>;
}

/** A worker that dies sooner than this after its start is restarted after a pause (a crash loop). */
const CRASH_LOOP_MS = 5_000;
const CRASH_PAUSE_MS = 1_000;

/**
 * In the primary: forks `count` workers with `env` added to theirs, and replaces any that exits while
 * not stopping.
 */
export function superviseWorkers(
  count: number,
  options: { log: Logger; env?: Record<string, string> },
): Workers {
  const { log } = options;
  const live = new Map<Worker, number>(); // worker → when it started
  let stopping = false;
  let restarts = 0;
  let first = true;
  const readies: WorkerReady[] = [];
  let settle: { resolve(r: WorkerReady[]): void; reject(e: Error): void } | undefined;
  let settleFirst: { resolve(r: WorkerReady): void; reject(e: Error): void } | undefined;
  const ready = new Promise<WorkerReady[]>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const firstReady = new Promise<WorkerReady>((resolve, reject) => {
    settleFirst = { resolve, reject };
  });
  // Whoever waits on one of them only: the other's rejection is not unhandled.
  ready.catch(() => undefined);
  firstReady.catch(() => undefined);

  // Workers serve: they start with the serving V8 flags (kit's serving-flags.ts) unless the operator set them.
  cluster.setupPrimary({ execArgv: [...process.execArgv, ...servingFlags()] });
  const fork = () => {
    const worker = cluster.fork(options.env ?? {});
    live.set(worker, Date.now());
    const initial = first;
    let served = false;
    worker.on('message', (message: unknown) => {
      if (!isReady(message)) return;
      served = true;
      log.info({ worker: worker.id, workerPid: message.pid }, 'worker serving');
      if (!initial) return;
      readies.push({ address: message.address, proxyAddress: message.proxyAddress, pid: message.pid });
      if (readies.length === 1) settleFirst?.resolve(readies[0] as WorkerReady);
      if (readies.length === count) {
        first = false;
        settle?.resolve(readies);
      }
    });
    worker.on('exit', (code, signal) => {
      const started = live.get(worker) ?? 0;
      live.delete(worker);
      if (stopping) return;
      if (initial && !served && readies.length === 0) {
        // No worker could start (a port in use, a bad setting): stop them all. (Once one serves, a worker
        // that fails is replaced like any other.)
        stopping = true;
        for (const w of live.keys()) w.process.kill('SIGTERM');
        const error = new Error(`worker ${worker.id} exited with ${signal ?? code} before it served`);
        settle?.reject(error);
        settleFirst?.reject(error);
        return;
      }
      restarts++;
      const soon = Date.now() - started < CRASH_LOOP_MS;
      log.error(
        { worker: worker.id, workerPid: worker.process.pid, code, signal },
        `worker exited unasked; starting another${soon ? ` in ${CRASH_PAUSE_MS} ms (it had just started)` : ''}`,
      );
      if (soon) setTimeout(() => stopping || fork(), CRASH_PAUSE_MS).unref();
      else fork();
    });
  };
  for (let i = 0; i < count; i++) fork();

  return {
    first: firstReady,
    ready,
    get restarts() {
      return restarts;
    },
    pids: () => [...live.keys()].map((w) => w.process.pid).filter((p): p is number => p !== undefined),
    async stop(graceMs) {
      stopping = true;
      const exits = [...live.keys()].map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.isDead()) return resolve();
            w.once('exit', () => resolve());
            w.process.kill('SIGTERM');
          }),
      );
      const force = setTimeout(() => {
        for (const w of live.keys()) {
          log.error({ worker: w.id, workerPid: w.process.pid }, 'worker did not stop in time; killing it');
          w.process.kill('SIGKILL');
        }
      }, graceMs);
      force.unref();
      await Promise.all(exits);
      clearTimeout(force);
    },
  };
}

/**
 * A free port on `host`, for a port setting of 0 (any free port) before forking: in a cluster, every
 * listen on port 0 of one host shares one handle, so the API and the proxy would get the same port.
 */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
