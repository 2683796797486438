// The server side of bench/users-api.ts: Cairn's app with the identity service plus two no-op routes, one
// behind the bearer check and one open, on a fresh database. Prints one JSON line {port, key} when ready.

import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIdentity, createOrganization, createServiceKey } from '@cairn/identity';
import { createApp, createLogger, createMetrics, loadConfig, migrate, openDb, systemClock } from '@cairn/kit';

const config = loadConfig({
  ...process.env,
  CAIRN_DATA_DIR: process.env.DATABASE_URL ? '' : mkdtempSync(join(tmpdir(), 'cairn-bench-')),
});
const db = await openDb(config);
const deps = { config, db, clock: systemClock, log: createLogger('warn'), metrics: createMetrics() };
const identity = createIdentity(deps);
await migrate(db, identity.module.migrations);
await identity.start();
const org = await createOrganization(identity.deps, `Bench ${Date.now()}`);
const { secret } = await createServiceKey(identity.deps, { organizationId: org.id });

const bench = {
  name: 'bench',
  title: 'no-op routes for the benchmark',
  migrations: [],
  plugin: async (app: import('fastify').FastifyInstance) => {
    app.get('/bench/open', async () => ({ ok: true }));
    // Behind the hook every bearer-protected API uses, with the same answer as the open route, byte for byte:
    // the difference measured is the check, not a longer body.
    await app.register(async (scope) => {
      scope.addHook('onRequest', identity.authenticate);
      scope.get('/bench/authenticated', async (request) => ({ ok: request.auth !== undefined }));
    });
  },
};
const app = await createApp(deps, [identity.module, bench]);
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(
  `${JSON.stringify({ port: (app.server.address() as AddressInfo).port, key: secret })}\n`,
);
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => db.close())
      .then(() => process.exit(0)),
);
