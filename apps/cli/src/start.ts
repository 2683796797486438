import type { Server } from 'node:http';
import { bootstrapEdgeDemo, type EdgeDemo } from '@cairn/edge';
import { bootstrapDemo } from '@cairn/identity';
import { createApp, type ServiceModule } from '@cairn/kit';
import { startAdminSocket } from './admin-socket.ts';
import { execute } from './execute.ts';
import { bufferedOutput } from './output.ts';
import type { Runtime } from './runtime.ts';

export interface StartServerOptions {
  /** The API's port and host (0: any free port). Default: the configuration's PORT and HOST. */
  port?: number;
  host?: string;
  /** The edge proxy's port (0: any free port). Default: the configuration's EDGE_PORT. */
  edgePort?: number;
  /** Generate the demo places on a first start (cairn serve does). Default true. */
  seedDemo?: boolean;
  /** Create the demo zone and its dashboard login on a first start. Default true. */
  edgeDemo?: boolean;
  /**
   * Create the Demo organization (and its key, or CAIRN_BOOTSTRAP_SERVICE_KEY) on a first start. Default
   * true; a worker of `cairn serve` leaves it to its primary, which did it before forking.
   */
  bootstrap?: boolean;
  /**
   * Serve other cairn commands over the admin socket in the data directory (embedded database only).
   * Default true; an in-memory database has no data directory to put it in.
   */
  adminSocket?: boolean;
  /** More modules served with the services (the sandbox controls). */
  modules?: readonly ServiceModule[];
}

/** A running Cairn: every API on one port, the edge proxy on another. */
export interface CairnServer {
  /** The API's base URL, e.g. http://127.0.0.1:3000. */
  address: string;
  /** The edge proxy's base URL. */
  proxyAddress: string;
  /**
   * The Demo organization's service key when it is known: the bootstrap key (CAIRN_BOOTSTRAP_SERVICE_KEY),
   * or the one generated on this first start (shown once). Undefined on a later start without a fixed key.
   */
  serviceKey?: string;
  /** True when serviceKey was generated now (print it once). */
  newServiceKey: boolean;
  /** The demo places generated on this start, if any. */
  demoPlaces?: { seeded: number; ms: number };
  /** The demo zone and login created on this start, if any. */
  edgeDemo?: EdgeDemo;
  /**
   * Before a graceful stop: /readyz answers 503 from now on while every request is still served, for
   * SHUTDOWN_DRAIN_MS, so a load balancer stops sending requests here first. Then call close().
   */
  drain(): Promise<void>;
  /** Stops the API and the proxy (graceful); the runtime (database, services) stays open for its owner to close. */
  close(): Promise<void>;
}

/**
 * The start sequence of `cairn serve`, reusable by startCairn and by tests: starts the services on an open
 * runtime, bootstraps the demo organization (and zone), listens on the API and edge proxy ports, and opens
 * the admin socket.
 */
export async function startCairnServer(
  runtime: Runtime,
  options: StartServerOptions = {},
): Promise<CairnServer> {
  const { config } = runtime.deps;
  const host = options.host ?? config.host;
  // The web apps were built by the install step (npm run build); start only checks they are there.
  await runtime.placemakers.start();
  runtime.edge.checkDashboardBuilt();
  const app = await createApp(runtime.deps, [...(options.modules ?? []), ...runtime.services]);
  let listening = false;
  try {
    await runtime.identity.start();
    const places = await runtime.places.start({ seedDemo: options.seedDemo ?? true });
    const boot =
      options.bootstrap === false
        ? undefined
        : await bootstrapDemo(runtime.identity.deps, config.bootstrapServiceKey);
    const address = await app.listen({ port: options.port ?? config.port, host });
    listening = true;
    const edgeProxy = await runtime.edge.startProxy({ port: options.edgePort ?? config.edgePort, host });
    // First start: a demo zone in front of this server's own places API, and a dashboard login for it.
    const edgeDemo =
      options.edgeDemo === false ? undefined : await bootstrapEdgeDemo(runtime.edge.deps, address);

    let adminSocket: Server | undefined;
    if ((options.adminSocket ?? true) && !config.databaseUrl) {
      adminSocket = await startAdminSocket(config.dataDir, async (argv) => {
        const buffer = bufferedOutput();
        const code = await execute(argv, buffer.out, async () => runtime);
        return { code, stdout: buffer.stdout(), stderr: buffer.stderr() };
      });
    }
    const serviceKey = boot?.newServiceKey ?? config.bootstrapServiceKey;
    return {
      address,
      proxyAddress: edgeProxy.address,
      ...(serviceKey ? { serviceKey } : {}),
      newServiceKey: boot?.newServiceKey !== undefined,
      ...(places.demo ? { demoPlaces: places.demo } : {}),
      ...(edgeDemo ? { edgeDemo } : {}),
      drain: () => app.drain(config.shutdownDrainMs),
      async close() {
        adminSocket?.close();
        await Promise.all([app.close(), runtime.edge.stopProxy()]);
      },
    };
  } catch (error) {
    if (listening) await Promise.all([app.close(), runtime.edge.stopProxy()]).catch(() => undefined);
    throw error;
  }
}
