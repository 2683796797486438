import { demoLines } from '@cairn/edge';
import type { CommandSpec } from '../command.ts';
import { createSandbox, isSandboxClock } from '../sandbox/index.ts';
import { startCairnServer } from '../start.ts';

export const serve: CommandSpec = {
  usesDatabase: true,
  forwardable: false,
  createsDatabase: true,
  serverLogs: true,
  async run(_args, ctx) {
    const runtime = await ctx.runtime();
    const { config, log } = runtime.deps;
    // Sandbox mode (CAIRN_SANDBOX=1) opened the runtime on a sandbox clock: mount the /_cairn/ controls.
    const sandbox = isSandboxClock(runtime.deps.clock) ? createSandbox(runtime) : undefined;
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
    ctx.out.line(
      `The edge dashboard is at ${config.publicUrl}/dashboard/ (sign in with an API token from cairn edge tokens create, or a login from cairn edge users create)`,
    );
    if (server.demoPlaces) {
      ctx.out.line(
        `Generated ${server.demoPlaces.seeded.toLocaleString('en-US')} demo places in ${(server.demoPlaces.ms / 1000).toFixed(1)} s (cairn places generate adds more)`,
      );
    }
    const newServiceKey = server.newServiceKey ? server.serviceKey : undefined;
    if (newServiceKey) {
      ctx.out.line(
        [
          '',
          'Created the organization "Demo" and its service key. It is shown this once; store it now:',
          '',
          `  ${newServiceKey}`,
          '',
          'Try it:',
          `  curl -X POST '${address}/users/managed-user/create?first_name=Ada&last_name=Lovelace' \\`,
          `    -H 'Authorization: Bearer ${newServiceKey}' -H 'X-Users-Api-Version: 2025-06-17' -H 'Accept: application/json'`,
          '',
        ].join('\n'),
      );
    }
    if (server.edgeDemo) {
      const urls = { proxy: proxyAddress, dashboard: `${config.publicUrl}/dashboard/` };
      ctx.out.line(['', ...demoLines(server.edgeDemo, urls, newServiceKey), ''].join('\n'));
    }

    await new Promise<void>((done) => {
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) process.exit(1); // a second signal: stop now
        stopping = true;
        log.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down');
        // First /readyz turns 503 while requests are still served (SHUTDOWN_DRAIN_MS), so a load balancer
        // takes this host out before its connections are refused; then requests in flight get the grace.
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
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
    return 0;
  },
};
