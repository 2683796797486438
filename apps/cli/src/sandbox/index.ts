import type { Edge } from '@cairn/edge';
import { CONFIG_CHANNEL } from '@cairn/edge';
import { DEMO_ORGANIZATION, type Identity } from '@cairn/identity';
import { type AppDeps, CairnError, type Queryable, type ServiceModule } from '@cairn/kit';
import type { Places } from '@cairn/places';
import { isSandboxClock, type SandboxClock } from './clock.ts';
import { type SandboxCredentials, sandboxCredentials } from './credentials.ts';
import { type Fault, type FaultInput, FaultTable } from './faults.ts';
import { type JournalEntry, type JournalFilter, RequestJournal } from './journal.ts';
import { sandboxPlugin } from './routes.ts';
import { checkSnapshotName, type SnapshotInfo, SnapshotStore } from './snapshots.ts';

export {
  type ClockState,
  createSandboxClock,
  isSandboxClock,
  parseDuration,
  type SandboxClock,
} from './clock.ts';
export type {
  AppCredentials,
  SandboxCredentials,
  SessionToken,
  SessionTokenInput,
  UserAccessToken,
  UserAccessTokenInput,
} from './credentials.ts';
export { markSandboxDatabase, prepareSandboxDatabase, SandboxRefusedError, sandboxMode } from './database.ts';
export type { Fault, FaultInput } from './faults.ts';
export type { JournalEntry, JournalFilter } from './journal.ts';
export type { SnapshotInfo } from './snapshots.ts';

/** The services a sandbox controls (a Runtime has them all). */
export interface SandboxRuntime {
  deps: AppDeps;
  identity: Pick<Identity, 'resolver' | 'deps'>;
  places: Pick<Places, 'usage' | 'limiter' | 'reload'>;
  edge: Pick<Edge, 'engine' | 'recorder'>;
}

export interface SandboxOptions {
  /**
   * The service key the HTTP controls accept. Default: CAIRN_BOOTSTRAP_SERVICE_KEY, else the Demo
   * organization's first key (the one `cairn serve` printed on the first start).
   */
  serviceKey?: string;
  /** Calls the journal keeps (the oldest are dropped). Default 1000. */
  journalSize?: number;
  /** Random numbers for faults given a probability (tests pass a seeded one). */
  random?: () => number;
}

export interface Sandbox {
  /** The clock every service reads (the runtime's deps.clock). */
  clock: SandboxClock;
  faults: { add(fault: FaultInput): Fault; list(): Fault[]; clear(): number };
  requests: { list(filter?: JournalFilter): JournalEntry[]; clear(): number };
  /** A person's access token and session token, through the OAuth flow's own steps (credentials.ts). */
  credentials: SandboxCredentials;
  snapshot(name: string): Promise<SnapshotInfo & { replaced: boolean }>;
  restore(name: string): Promise<SnapshotInfo>;
  list(): Promise<SnapshotInfo[]>;
  remove(name: string): Promise<void>;
  /** Back to the state right after start (and fixtures): data, clock (real time), faults and journal. */
  reset(): Promise<void>;
  /**
   * Takes the state that reset() returns to. Call it once the start (and the fixtures) are done; before it,
   * reset() refuses.
   */
  ready(): Promise<void>;
  /** The /_cairn/ controls and the fault and journal hooks, mounted with the services (createApp). */
  module: ServiceModule;
}

/** The snapshot reset() restores; not a name a caller can give ("@" can't start one). */
const START = '@start';

/**
 * The sandbox of a runtime opened with a sandbox clock (createSandboxClock, passed as openRuntime's clock)
 * on a database prepared for it (openRuntime's `sandbox` option).
 */
export function createSandbox(runtime: SandboxRuntime, options: SandboxOptions = {}): Sandbox {
  const { deps } = runtime;
  const clock = deps.clock;
  if (!isSandboxClock(clock)) {
    throw new Error('createSandbox: the runtime must be opened with a sandbox clock (createSandboxClock)');
  }
  const db = deps.db;
  const store = new SnapshotStore(db);
  const faults = new FaultTable(options.random);
  const journal = new RequestJournal(options.journalSize ?? 1000);
  let started = false;
  // Snapshots, restores and resets run one at a time.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };

  // Expired events go as soon as the clock passes their retention, not at the next hourly prune. One
  // prune at a time, and once more after it when the clock moved meanwhile: two at once, the second
  // skips the job's locked row, and a move made while the first ran would wait for the hourly one.
  let pruning = false;
  let movedWhilePruning = false;
  clock.onMove(() => {
    if (pruning) {
      movedWhilePruning = true;
      return;
    }
    pruning = true;
    void (async () => {
      do {
        movedWhilePruning = false;
        await runtime.edge.recorder.prune();
      } while (movedWhilePruning);
      pruning = false;
    })();
  });

  /** What is held in memory goes to the database first, so a snapshot has it and a restore drops it. */
  async function settle() {
    await runtime.places.usage.flush();
    await runtime.edge.recorder.flush();
  }

  async function zoneIds(tx: Queryable): Promise<string[]> {
    const { rows } = await tx.query<{ id: string }>('SELECT id FROM edge_zones');
    return rows.map((r) => r.id);
  }

  async function restoreNamed(name: string): Promise<SnapshotInfo> {
    await settle();
    const zones = new Set<string>();
    const info = await store.restore(name, async (tx) => {
      for (const id of await zoneIds(tx)) zones.add(id);
      // Other processes on the database drop their plans of zones that are gone (restored ones notify
      // through the edge's triggers).
      for (const id of zones) await tx.query('SELECT pg_notify($1, $2)', [CONFIG_CHANNEL, id]);
    });
    for (const id of await zoneIds(db)) zones.add(id);
    // Every in-process cache of what was replaced: credentials, zone plans, categories, rate buckets.
    runtime.identity.resolver.forget('*');
    for (const id of zones) runtime.edge.engine.invalidate(id);
    runtime.places.limiter.clear?.();
    await runtime.places.reload();
    return info;
  }

  const sandbox: Sandbox = {
    clock,
    faults: {
      add: (fault) => faults.add(fault),
      list: () => faults.list(),
      clear: () => faults.clear(),
    },
    requests: {
      list: (filter) => journal.list(filter),
      clear: () => journal.clear(),
    },
    credentials: sandboxCredentials(runtime.identity, deps.config.publicUrl),
    snapshot: (name) =>
      serial(async () => {
        checkSnapshotName(name);
        await settle();
        return store.take(name, clock.now());
      }),
    restore: (name) => serial(() => restoreNamed(checkSnapshotName(name))),
    list: async () => (await store.list()).filter((s) => !s.name.startsWith('@')),
    remove: (name) => serial(() => store.remove(checkSnapshotName(name))),
    reset: () =>
      serial(async () => {
        if (!started) {
          throw new CairnError(
            503,
            'starting',
            'The sandbox is still starting: there is no start state to reset to yet',
          );
        }
        faults.clear();
        clock.reset();
        await restoreNamed(START);
        journal.clear();
      }),
    ready: () =>
      serial(async () => {
        await settle();
        await store.take(START, clock.now());
        started = true;
      }),
    module: {
      name: 'sandbox',
      title: 'Sandbox controls (/_cairn/)',
      migrations: [],
      plugin: async () => {},
    },
  };
  sandbox.module.plugin = sandboxPlugin({
    sandbox,
    faults,
    journal,
    db,
    fixedKey: options.serviceKey ?? deps.config.bootstrapServiceKey,
    organization: DEMO_ORGANIZATION,
  });
  return sandbox;
}
