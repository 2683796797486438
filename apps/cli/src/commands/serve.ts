import { bootstrapEdgeDemo, demoLines } from '@cairn/edge';
import { bootstrapDemo } from '@cairn/identity';
import { createApp } from '@cairn/kit';
import { startAdminSocket } from '../admin-socket.ts';
import type { CommandSpec } from '../command.ts';
import { execute } from '../execute.ts';
import { bufferedOutput } from '../output.ts';

export const serve: CommandSpec = {
  usesDatabase: true,
  forwardable: false,
  createsDatabase: true,
  serverLogs: true,
  async run(_args, ctx) {
    const runtime = await ctx.runtime();
    const { config, log } = runtime.deps;
    // The web apps were built by the install step (npm run build); start only checks they are there.
    await runtime.placemakers.start();
    runtime.edge.checkDashboardBuilt();
    const app = await createApp(runtime.deps, runtime.services);
    await runtime.identity.start();
    const places = await runtime.places.start({ seedDemo: true });
    const boot = await bootstrapDemo(runtime.identity.deps, config.bootstrapServiceKey);
    const address = await app.listen({ port: config.port, host: config.host });
    const edgeProxy = await runtime.edge.startProxy({ port: config.edgePort, host: config.host });
    // First start: a demo zone in front of this server's own places API, and a dashboard login for it.
    const edgeDemo = await bootstrapEdgeDemo(runtime.edge.deps, address);

    if (!config.databaseUrl) {
      await startAdminSocket(config.dataDir, async (argv) => {
        const buffer = bufferedOutput();
        const code = await execute(argv, buffer.out, async () => runtime);
        return { code, stdout: buffer.stdout(), stderr: buffer.stderr() };
      });
    }

    const storage = config.databaseUrl
      ? 'PostgreSQL (DATABASE_URL)'
      : `the embedded database in ${config.dataDir}`;
    ctx.out.line(`Cairn is listening on ${address}, on ${storage}`);
    ctx.out.line(
      `The edge proxy (zones' WAF in front of their origins) is listening on ${edgeProxy.address}`,
    );
    ctx.out.line(
      `The edge dashboard is at ${config.publicUrl}/dashboard/ (sign in with an API token from cairn edge tokens create, or a login from cairn edge users create)`,
    );
    if (places.demo) {
      ctx.out.line(
        `Generated ${places.demo.seeded.toLocaleString('en-US')} demo places in ${(places.demo.ms / 1000).toFixed(1)} s (cairn places generate adds more)`,
      );
    }
    if (boot?.newServiceKey) {
      ctx.out.line(
        [
          '',
          'Created the organization "Demo" and its service key. It is shown this once; store it now:',
          '',
          `  ${boot.newServiceKey}`,
          '',
          'Try it:',
          `  curl -X POST '${address}/users/managed-user/create?first_name=Ada&last_name=Lovelace' \\`,
          `    -H 'Authorization: Bearer ${boot.newServiceKey}' -H 'X-Users-Api-Version: 2025-06-17' -H 'Accept: application/json'`,
          '',
        ].join('\n'),
      );
    }
    if (edgeDemo) {
      const urls = { proxy: edgeProxy.address, dashboard: `${config.publicUrl}/dashboard/` };
      ctx.out.line(['', ...demoLines(edgeDemo, urls, boot?.newServiceKey), ''].join('\n'));
    }

    await new Promise<void>((done) => {
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) process.exit(1); // a second signal: stop now
        stopping = true;
        log.info({ signal }, 'shutting down');
        const force = setTimeout(() => {
          log.error('graceful shutdown timed out; exiting');
          process.exit(1);
        }, config.shutdownGraceMs);
        force.unref();
        void Promise.all([app.close(), runtime.edge.stopProxy()]).then(() => done(), done);
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
    return 0;
  },
};
