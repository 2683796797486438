import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { AppDeps, ServiceModule } from './app.ts';
import { createApp } from './app.ts';
import { type Clock, createFakeClock } from './clock.ts';
import { type Config, loadConfig } from './config.ts';
import type { Migration } from './db/migrations.ts';
import { createTestDb, type TestDb } from './db/test-db.ts';
import { createLogger } from './log.ts';
import { createMetrics } from './metrics.ts';

/** Everything a service test needs, on a fresh migrated database, with every log line kept for inspection. */
export interface TestDeps extends AppDeps {
  db: TestDb;
  logLines: string[];
}

export async function createTestDeps(
  migrations: readonly Migration[],
  options: { clock?: Clock; env?: Record<string, string> } = {},
): Promise<TestDeps> {
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  // A free port chosen up front, so that PUBLIC_URL (links, the OAuth issuer) names the address served.
  const port = await freePort();
  const config: Readonly<Config> = loadConfig({
    CAIRN_DATA_DIR: '/nonexistent',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...options.env,
  });
  const log = createLogger('info', sink);
  return {
    config,
    db: await createTestDb(migrations, log),
    clock: options.clock ?? createFakeClock(),
    log,
    metrics: createMetrics({ defaultMetrics: false }),
    logLines,
  };
}

/** Serves the given services on a random loopback port; returns its base URL and a close function. */
export async function serveOnLoopback(deps: AppDeps, services: readonly ServiceModule[]) {
  const app = await createApp(deps, services);
  await app.listen({ port: deps.config.port, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    // Tests may leave responses unread; don't wait for those clients.
    close: async () => {
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Temporary directories that a test file removes when it is done (call `removeAll` in afterAll). */
export function tempDirs(prefix: string) {
  const made: string[] = [];
  return {
    make(): string {
      const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
      made.push(dir);
      return dir;
    },
    removeAll() {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
