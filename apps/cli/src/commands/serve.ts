import { bootstrapEdgeDemo, demoLines, type EdgeDemo } from '@cairn/edge';
import { bootstrapDemo } from '@cairn/identity';
import type { Config, Logger, ServiceModule } from '@cairn/kit';
import type { CommandContext, CommandSpec } from '../command.ts';
import type { Runtime } from '../runtime.ts';
import { createSandbox, isSandboxClock } from '../sandbox/index.ts';
import { type CairnServer, startCairnServer } from '../start.ts';
import {
  announceReady,
  freePort,
  isWorker,
  leaveCluster,
  superviseWorkers,
  workerCount,
  workerId,
} from '../workers.ts';

export const serve: CommandSpec = {
  usesDatabase: true,
  forwardable: false,
  createsDatabase: true,
  serverLogs: true,
  async run(_args, ctx) {
    const workers = workerCount();
    const runtime = await ctx.runtime();
    const { config, log } = runtime.deps;
    if (isWorker()) return serveAsWorker(runtime);
    // Sandbox mode (CAIRN_SANDBOX=1) opened the runtime on a sandbox clock: mount the /_cairn/ controls.
    const sandbox = isSandboxClock(runtime.deps.clock) ? createSandbox(runtime) : undefined;
    if (workers > 1 && config.databaseUrl && !sandbox) return servePrimary(runtime, ctx, workers);
    if (workers > 1 && process.env.CAIRN_WORKERS) {
      log.warn(
        { CAIRN_WORKERS: workers },
        sandbox
          ? 'CAIRN_WORKERS is ignored in sandbox mode: one process holds the sandbox clock and snapshots'
          : 'CAIRN_WORKERS is ignored on the embedded database: one process holds it; set DATABASE_URL (PostgreSQL) to serve on several processes',
      );
    }
    const server = await startCairnServer(runtime, sandbox ? { modules: [sandbox.module] } : {});
    await sandbox?.ready();
    const { address, proxyAddress } = server;

    const storage = config.databaseUrl
      ? 'PostgreSQL (DATABASE_URL)'
      : `the embedded database in ${config.dataDir}`;
    ctx.out.line(`Cairn is listening on ${address}, on ${storage}`);
    ctx.out.line(`The edge proxy (zones' WAF in front of their origins) is listening on ${proxyAddress}`);
    ctx.out.line(
      sandbox
        ? `Sandbox mode (CAIRN_SANDBOX=1): test controls under ${address}/_cairn/ (snapshots, reset, clock, faults, requests), with the bootstrap service key; faults and the request journal cover the API port, not the edge proxy`
        : 'Production mode: no sandbox controls (CAIRN_SANDBOX=1 adds them, on a new data directory)',
    );
    printWelcome(ctx, config, {
      proxyAddress,
      ...(server.demoPlaces ? { demoPlaces: server.demoPlaces } : {}),
      ...(server.newServiceKey && server.serviceKey ? { newServiceKey: server.serviceKey } : {}),
      ...(server.edgeDemo ? { edgeDemo: server.edgeDemo } : {}),
      address,
    });

    await untilStopped(log, config, server, { secondSignalExits: true });
    return 0;
  },
};

/** What the welcome text shows after the listening lines. */
interface Welcome {
  address: string;
  proxyAddress: string;
  demoPlaces?: { seeded: number; ms: number };
  newServiceKey?: string;
  edgeDemo?: EdgeDemo;
}

function printWelcome(ctx: CommandContext, config: Readonly<Config>, w: Welcome): void {
  ctx.out.line(
    `The edge dashboard is at ${config.publicUrl}/dashboard/ (sign in with an API token from cairn edge tokens create, or a login from cairn edge users create)`,
  );
  if (w.demoPlaces) {
    ctx.out.line(
      `Generated ${w.demoPlaces.seeded.toLocaleString('en-US')} demo places in ${(w.demoPlaces.ms / 1000).toFixed(1)} s (cairn places generate adds more)`,
    );
  }
  if (w.newServiceKey) {
    ctx.out.line(
      [
        '',
        'Created the organization "Demo" and its service key. It is shown this once; store it now:',
        '',
        `  ${w.newServiceKey}`,
        '',
        'Try it:',
        `  curl -X POST '${w.address}/users/managed-user/create?first_name=Ada&last_name=Lovelace' \\`,
        `    -H 'Authorization: Bearer ${w.newServiceKey}' -H 'X-Users-Api-Version: 2025-06-17' -H 'Accept: application/json'`,
        '',
      ].join('\n'),
    );
  }
  if (w.edgeDemo) {
    const urls = { proxy: w.proxyAddress, dashboard: `${config.publicUrl}/dashboard/` };
    ctx.out.line(['', ...demoLines(w.edgeDemo, urls, w.newServiceKey), ''].join('\n'));
  }
}

/**
 * Waits for SIGTERM or SIGINT, then stops gracefully: first /readyz turns 503 while requests are still
 * served (SHUTDOWN_DRAIN_MS), so a load balancer takes this host out before its connections are refused;
 * then requests in flight get SHUTDOWN_GRACE_MS. A second signal stops at once — except in a worker,
 * which may get the signal twice (from its primary, and from a terminal or service manager signalling the
 * whole group): its primary enforces the time limit.
 */
function untilStopped(
  log: Logger,
  config: Readonly<Config>,
  server: Pick<CairnServer, 'drain' | 'close'>,
  options: { secondSignalExits: boolean },
): Promise<void> {
  return new Promise<void>((done) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) {
        if (options.secondSignalExits) process.exit(1); // a second signal: stop now
        return;
      }
      stopping = true;
      log.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down');
      void server
        .drain()
        .then(() => {
          const force = setTimeout(() => {
            log.error('graceful shutdown timed out; exiting');
            process.exit(1);
          }, config.shutdownGraceMs);
          force.unref();
          return server.close();
        })
        .then(() => done(), done);
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
  });
}

/** In /readyz of a worker: which one answered (`worker: {id, pid}`). */
function workerModule(): ServiceModule {
  return {
    name: 'worker',
    title: 'The worker process serving this request',
    migrations: [],
    plugin: async () => {},
    readiness: () => ({ id: workerId(), pid: process.pid }),
  };
}

/**
 * A worker: serves the API and the proxy on the ports the primary shares. The primary does the one-time
 * work (migrations before forking; demo organization, places and zone); retention jobs that every
 * process schedules run once across them (events: edge_jobs).
 */
async function serveAsWorker(runtime: Runtime): Promise<number> {
  const { config, log } = runtime.deps;
  const server = await startCairnServer(runtime, {
    seedDemo: false,
    edgeDemo: false,
    bootstrap: false,
    adminSocket: false,
    modules: [workerModule()],
  });
  announceReady({ address: server.address, proxyAddress: server.proxyAddress });
  await untilStopped(log, config, server, { secondSignalExits: false });
  leaveCluster();
  return 0;
}

/**
 * The primary of `cairn serve` on PostgreSQL with CAIRN_WORKERS > 1: the workers (restarted when one
 * exits unasked) and the one-time work; on SIGTERM/SIGINT each worker drains and stops.
 */
async function servePrimary(runtime: Runtime, ctx: CommandContext, count: number): Promise<number> {
  const { config, log } = runtime.deps;
  runtime.edge.checkDashboardBuilt();
  // Every listen on port 0 of one host would share one handle in a cluster: give the proxy its port now
  // (main did PORT's).
  const edgePort = config.edgePort === 0 ? await freePort(config.host) : config.edgePort;
  // The migrations ran (openRuntime): fork now, and do the one-time work while the workers start.
  const workers = superviseWorkers(count, {
    log,
    env: { PORT: String(config.port), EDGE_PORT: String(edgePort), CAIRN_WORKERS: String(count) },
  });
  const stopWorkers = () => workers.stop(config.shutdownDrainMs + config.shutdownGraceMs + 2_000);
  const stopped = new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) {
        for (const pid of workers.pids()) process.kill(pid, 'SIGKILL');
        process.exit(1);
      }
      stopping = true;
      log.info({ signal, workers: workers.pids() }, 'shutting down: every worker drains and stops');
      void stopWorkers().then(resolve);
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
  });
  // Once, by the primary: the reference data and demo places, and the Demo organization.
  let places: Awaited<ReturnType<Runtime['places']['start']>>;
  let boot: Awaited<ReturnType<typeof bootstrapDemo>>;
  try {
    places = await runtime.places.start({ seedDemo: true });
    await runtime.places.stop();
    boot = await bootstrapDemo(runtime.identity.deps, config.bootstrapServiceKey);
  } catch (error) {
    await stopWorkers();
    throw error;
  }
  // Print once one worker serves (the others join as they start); a signal before: nothing to print.
  const first = await Promise.race([workers.first, stopped.then(() => undefined)]);
  if (!first) return 0;
  // The demo zone fronts this server's own places API, at the address the workers share.
  const edgeDemo = await bootstrapEdgeDemo(runtime.edge.deps, first.address);
  ctx.out.line(`Cairn is listening on ${first.address}, on PostgreSQL (DATABASE_URL)`);
  ctx.out.line(`The edge proxy (zones' WAF in front of their origins) is listening on ${first.proxyAddress}`);
  ctx.out.line(
    `Serving on ${count} worker processes (CAIRN_WORKERS; default: one per core) sharing both ports, each taking connections once started; this primary process ${process.pid} restarts a worker that exits`,
  );
  ctx.out.line('Production mode: no sandbox controls (CAIRN_SANDBOX=1 adds them, on a new data directory)');
  printWelcome(ctx, config, {
    address: first.address,
    proxyAddress: first.proxyAddress,
    ...(places.demo ? { demoPlaces: places.demo } : {}),
    ...(boot?.newServiceKey ? { newServiceKey: boot.newServiceKey } : {}),
    ...(edgeDemo ? { edgeDemo } : {}),
  });
  await stopped;
  return 0;
}
