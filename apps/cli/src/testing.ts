// cairn/testing: Cairn as a test double, started from a test suite. Every API and the edge proxy on free
// loopback ports, on an in-memory embedded database (PGlite), in sandbox mode (snapshots, reset, a clock,
// faults, a request journal). A start clones a template database (migrated, places generated, fixtures
// applied) built once per set of options and kept in a cache directory, so a warm start skips initdb,
// the migrations and the fixtures.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { edgeMigrations } from '@cairn/edge';
import { bootstrapDemo, identityMigrations } from '@cairn/identity';
import {
  type Config,
  createLogger,
  type Logger,
  loadConfig,
  migrationsDigest,
  pgliteOptions,
  wrapPglite,
} from '@cairn/kit';
import { freePort } from '@cairn/kit/testing';
import { generatePlaces, placesMigrations } from '@cairn/places';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { applyFixtures, checkFixtures, type Fixtures, readFixtures } from './fixtures.ts';
import { openRuntime, type Runtime } from './runtime.ts';
import { createSandbox, createSandboxClock, type Sandbox, type SandboxClock } from './sandbox/index.ts';
import { startCairnServer } from './start.ts';

export type { Fixtures } from './fixtures.ts';
export type {
  AppCredentials,
  Fault,
  FaultInput,
  JournalEntry,
  JournalFilter,
  SandboxClock,
  SessionToken,
  SessionTokenInput,
  SnapshotInfo,
  UserAccessToken,
  UserAccessTokenInput,
} from './sandbox/index.ts';

export interface StartCairnOptions {
  /** The places generator's seed (any text): the same seed and count give the same places. Default "1". */
  seed?: string;
  /** How many places to generate around the world's cities. Default 1000; 0 for none. */
  places?: number;
  /**
   * The state to start from, on top of the generated places: a YAML file's path, or the same as an object
   * (see `cairn fixtures load --help` and docs/testing-with-cairn.md). reset() comes back to it.
   */
  fixtures?: string | Fixtures;
  /**
   * The bootstrap service key (the Demo organization's, and the one the /_cairn/ controls accept):
   * "svk_" and 43 base64url characters. Default: one generated with the template, the same for every start
   * from it.
   */
  serviceKey?: string;
  /** Log level of the servers' lines (stderr). Default "warn". */
  logLevel?: Config['logLevel'];
  /** Where templates are kept between runs. Default CAIRN_CACHE_DIR, else <tmpdir>/cairn-templates. */
  cacheDir?: string;
}

/** A running Cairn for a test; stop() it when done. */
export interface Cairn {
  /** Base URL of every API (places, users, OAuth, edge API v4 under /client/v4) and the /_cairn/ controls. */
  url: string;
  /** Base URL of the edge proxy (zones' WAF in front of their origins; the zone is the Host header). */
  proxyUrl: string;
  /** The bootstrap service key: the Demo organization's, and the only one the /_cairn/ controls accept. */
  serviceKey: string;
  /** Saves the whole state under a name (replacing one of the same name). */
  snapshot(name: string): Promise<void>;
  /** Goes back to a snapshot; a name never taken is an error naming it. */
  restore(name: string): Promise<void>;
  /** Back to the start: the template's data and fixtures, the real time, no faults, an empty journal. */
  reset(): Promise<void>;
  /** The clock every expiry follows: freeze(), advance('10m'), set(date), resume(), now(). */
  clock: SandboxClock;
  /** Injected faults: add({ path, status, retryAfter, latencyMs, reset, times | probability }), list(), clear(). */
  faults: Sandbox['faults'];
  /** The journal of calls received: list({ method, path, status, since }), clear(). */
  requests: Sandbox['requests'];
  /**
   * A person's access token for an app, through the OAuth flow's own steps (authorization request with
   * PKCE, sign-in with the password, consent, code, client authentication): userAccessToken({ app:
   * { clientId, clientSecret }, person: { email, password }, placemaker: true }). Without person, a new
   * person signs up.
   */
  userAccessToken: Sandbox['credentials']['userAccessToken'];
  /**
   * A 10-minute session token for the editor: sessionToken({ accessToken }) from a placemaker access token,
   * or sessionToken({ app, person }) through a new grant with the placemaker permission.
   */
  sessionToken: Sandbox['credentials']['sessionToken'];
  /** Stops the servers and drops the database. */
  stop(): Promise<void>;
}

/** Bumped when what a template holds changes in a way its key does not show. */
const TEMPLATE_FORMAT = 3;

interface Template {
  /** The data directory as an uncompressed tar (PGlite's dumpDataDir). */
  dump: Uint8Array;
  serviceKey: string;
}

const templates = new Map<string, Promise<Template>>();

/**
 * Bytes PGlite reads as a Blob, in one copy. PGlite only calls arrayBuffer() on the Blobs it is given
 * (loadDataDir, fsBundle), and Node 20's Blob.arrayBuffer() reads its bytes in chunks and joins them: about
 * 0.3 s of CPU per start for the template and PGlite's file bundle. Each call returns a new copy, as PGlite
 * may keep the buffer as the files' storage and write to it.
 */
class BytesBlob extends Blob {
  readonly #bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    super([]);
    this.#bytes = bytes;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes.slice().buffer);
  }
}

/** PGlite's WebAssembly, compiled once per process and shared by every start (each would compile it again). */
let engine: Promise<Pick<PGliteOptions, 'pgliteWasmModule' | 'initdbWasmModule' | 'fsBundle'>> | undefined;
function pgliteEngine() {
  engine ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    // Node has WebAssembly; the project's type library (ES2023, no DOM) only declares its types.
    const wasm = (
      globalThis as unknown as { WebAssembly: { compile(b: Uint8Array): Promise<WebAssembly.Module> } }
    ).WebAssembly;
    const [pgliteWasmModule, initdbWasmModule] = await Promise.all([
      wasm.compile(readFileSync(join(dist, 'pglite.wasm'))),
      wasm.compile(readFileSync(join(dist, 'initdb.wasm'))),
    ]);
    return {
      pgliteWasmModule,
      initdbWasmModule,
      fsBundle: new BytesBlob(readFileSync(join(dist, 'pglite.data'))),
    };
  })();
  return engine;
}

function cacheDirectory(options: StartCairnOptions): string {
  return options.cacheDir ?? process.env.CAIRN_CACHE_DIR ?? join(tmpdir(), 'cairn-templates');
}

/** The package ships the OWASP CRS rules (dist/crs); in a checkout the system's are used. */
function servicesEnv(): NodeJS.ProcessEnv {
  const shipped = fileURLToPath(new URL('./crs', import.meta.url));
  const env: NodeJS.ProcessEnv = { ...process.env, PLACES_DEMO_COUNT: '0' };
  if (!env.CAIRN_CRS_DIR && existsSync(join(shipped, 'rules'))) env.CAIRN_CRS_DIR = shipped;
  return env;
}

function generatedKey(): string {
  return `svk_${randomBytes(32).toString('base64url')}`;
}

async function sandboxConfig(serviceKey: string, logLevel: Config['logLevel']): Promise<Readonly<Config>> {
  const port = await freePort();
  return loadConfig({
    HOST: '127.0.0.1',
    PORT: String(port),
    EDGE_PORT: '0',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    // Nothing is written there: the database is in memory and no admin socket is opened.
    CAIRN_DATA_DIR: join(tmpdir(), 'cairn-in-memory'),
    LOG_LEVEL: logLevel,
    CAIRN_BOOTSTRAP_SERVICE_KEY: serviceKey,
    CAIRN_SANDBOX: '1',
  });
}

/** Builds a template: a new in-memory database, migrated, with the places, the Demo key and the fixtures. */
async function buildTemplate(
  options: StartCairnOptions,
  fixtures: Fixtures | undefined,
  log: Logger,
): Promise<Template> {
  const serviceKey = options.serviceKey ?? fixtures?.service_key ?? generatedKey();
  const config = await sandboxConfig(serviceKey, 'warn');
  const pg = await PGlite.create({
    ...pgliteOptions,
    ...(await pgliteEngine()),
    // WAL segments of 1 MB instead of 16: the current segment is in every dump, and so in every start
    initDbStartParams: ['--wal-segsize=1'],
  });
  // A checkpoint removes the WAL segments it no longer needs instead of keeping them as spares: every
  // start loads the dump, and a spare segment is 16 MiB of it.
  await pg.exec('SET wal_recycle = off');
  const runtime = await openRuntime(config, {
    db: wrapPglite(pg),
    clock: createSandboxClock(),
    sandbox: true,
    log,
    env: servicesEnv(),
  });
  try {
    const count = options.places ?? 1000;
    if (count > 0) await generatePlaces(runtime.deps.db, { count, seed: options.seed ?? '1' });
    await bootstrapDemo(runtime.identity.deps, serviceKey);
    if (fixtures) await applyFixtures(runtime, fixtures);
    // The start snapshot goes into the template: each start then copies again only the tables its own
    // start wrote (none, usually) instead of every table.
    await createSandbox(runtime, { serviceKey }).ready();
    // Nothing connects to the template databases of an in-memory sandbox: 15 MB less to load at each start.
    await pg.exec("UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')");
    await pg.exec('DROP DATABASE template0');
    await pg.exec('DROP DATABASE template1');
    await pg.query('CHECKPOINT');
    return { dump: new Uint8Array(await (await pg.dumpDataDir('none')).arrayBuffer()), serviceKey };
  } finally {
    await runtime.close();
  }
}

async function template(options: StartCairnOptions, log: Logger): Promise<Template> {
  const fixtures =
    options.fixtures === undefined
      ? undefined
      : typeof options.fixtures === 'string'
        ? readFixtures(options.fixtures)
        : checkFixtures(options.fixtures);
  const key = createHash('sha256')
    .update(
      JSON.stringify({
        format: TEMPLATE_FORMAT,
        migrations: migrationsDigest([...identityMigrations, ...placesMigrations, ...edgeMigrations]),
        seed: options.seed ?? '1',
        places: options.places ?? 1000,
        serviceKey: options.serviceKey ?? null,
        fixtures: fixtures ?? null,
      }),
    )
    .digest('hex')
    .slice(0, 32);
  let found = templates.get(key);
  if (!found) {
    found = (async () => {
      const dir = cacheDirectory(options);
      const file = join(dir, `${key}.tar`);
      const meta = join(dir, `${key}.json`);
      if (existsSync(file) && existsSync(meta)) {
        const { serviceKey } = JSON.parse(readFileSync(meta, 'utf8')) as { serviceKey: string };
        return { dump: readFileSync(file), serviceKey };
      }
      const built = await buildTemplate(options, fixtures, log);
      // Written whole, then renamed: a concurrent start never reads half a template.
      mkdirSync(dir, { recursive: true });
      const suffix = `.${process.pid}.${randomBytes(4).toString('hex')}`;
      writeFileSync(file + suffix, built.dump);
      writeFileSync(meta + suffix, JSON.stringify({ serviceKey: built.serviceKey }));
      renameSync(file + suffix, file);
      renameSync(meta + suffix, meta);
      return built;
    })();
    templates.set(key, found);
    found.catch(() => templates.delete(key));
  }
  return found;
}

/**
 * Starts Cairn for a test: every API and the edge proxy on free loopback ports, on an in-memory database
 * cloned from a template, in sandbox mode.
 *
 * ```ts
 * const cairn = await startCairn({ fixtures: 'test/cairn.yaml' });
 * // … call cairn.url with cairn.serviceKey; cairn.clock.advance('10m'); await cairn.reset();
 * await cairn.stop();
 * ```
 */
export async function startCairn(options: StartCairnOptions = {}): Promise<Cairn> {
  const log = createLogger(options.logLevel ?? 'warn');
  const { dump, serviceKey } = await template(options, log);
  const config = await sandboxConfig(serviceKey, options.logLevel ?? 'warn');
  const clock = createSandboxClock();
  const pg = await PGlite.create({
    ...pgliteOptions,
    ...(await pgliteEngine()),
    loadDataDir: new BytesBlob(dump),
  });
  let runtime: Runtime;
  try {
    runtime = await openRuntime(config, {
      db: wrapPglite(pg),
      clock,
      sandbox: true,
      log,
      env: servicesEnv(),
    });
  } catch (error) {
    await pg.close();
    throw error;
  }
  try {
    const sandbox = createSandbox(runtime, { serviceKey });
    const server = await startCairnServer(runtime, {
      host: '127.0.0.1',
      port: config.port,
      edgePort: 0,
      seedDemo: false,
      edgeDemo: false,
      adminSocket: false,
      modules: [sandbox.module],
    });
    await sandbox.ready();
    let stopped: Promise<void> | undefined;
    return {
      url: server.address,
      proxyUrl: server.proxyAddress,
      serviceKey,
      snapshot: async (name) => {
        await sandbox.snapshot(name);
      },
      restore: async (name) => {
        await sandbox.restore(name);
      },
      reset: () => sandbox.reset(),
      clock: sandbox.clock,
      faults: sandbox.faults,
      requests: sandbox.requests,
      userAccessToken: (input) => sandbox.credentials.userAccessToken(input),
      sessionToken: (input) => sandbox.credentials.sessionToken(input),
      stop() {
        stopped ??= (async () => {
          try {
            await server.close();
          } finally {
            await runtime.close();
          }
        })();
        return stopped;
      },
    };
  } catch (error) {
    await runtime.close();
    throw error;
  }
}
