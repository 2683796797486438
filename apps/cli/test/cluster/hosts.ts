// The processes of the multi-host test, each in its host's namespace: a PostgreSQL server of its own (initdb
// in a temporary directory; the machine's PostgreSQL is not touched), HAProxy with active /readyz checks,
// and `cairn serve`.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { CLI } from '../run-cli.ts';
import type { Network } from './netns.ts';

/**
 * Polls `check` until it returns a value other than undefined (a throw counts as not yet), or throws after
 * `ms` or as soon as `gone` says the process it waits for has exited.
 */
export async function until<T>(
  what: string,
  ms: number,
  check: () => Promise<T | undefined>,
  gone?: Proc,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (gone && gone.child.exitCode !== null) {
      throw new Error(`${what}: the process exited (${gone.child.exitCode}):\n${gone.output().slice(-4000)}`);
    }
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface Proc {
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
}

function run(network: Network, host: string, command: string[], env: NodeJS.ProcessEnv = process.env): Proc {
  const child = spawn('ip', network.exec(host, command), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))),
  );
  return { child, exited, output: () => output };
}

const pgBin = () => {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  const bin = versions.map((v) => `/usr/lib/postgresql/${v}/bin`).find((b) => existsSync(`${b}/initdb`));
  if (!bin)
    throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql)');
  return bin;
};

/** initdb in `dir` and a postmaster listening on the host's address; resolves once it takes connections. */
export async function startPostgres(network: Network, host: string, dir: string) {
  const bin = pgBin();
  const data = join(dir, 'pgdata');
  chownSync(dir, 101, 104);
  const asPostgres = ['setpriv', '--reuid=postgres', '--regid=postgres', '--init-groups'];
  execFileSync(
    asPostgres[0]!,
    [
      ...asPostgres.slice(1),
      `${bin}/initdb`,
      '-D',
      data,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-sync',
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const { address } = network.hosts[host]!;
  writeFileSync(join(data, 'pg_hba.conf'), 'local all all trust\nhost all all 0.0.0.0/0 trust\n');
  // fsync off: the test kills Cairn hosts, never the database server, and the machine is shared.
  const proc = run(network, host, [
    ...asPostgres,
    `${bin}/postgres`,
    '-D',
    data,
    '-c',
    `listen_addresses=${address}`,
    '-c',
    'port=5432',
    '-c',
    `unix_socket_directories=${dir}`,
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=100',
  ]);
  const url = `postgres://postgres@${address}:5432`;
  await until(
    'PostgreSQL in its namespace',
    60_000,
    async () => {
      const client = new pg.Client({ connectionString: `${url}/postgres` });
      await client.connect();
      await client.end();
      return true;
    },
    proc,
  );
  return { proc, url };
}

export interface Balancer {
  proc: Proc;
  /** The status HAProxy gives a server of a backend: UP, DOWN, MAINT, "UP 1/2", … */
  status(backend: string, server: string): Promise<string | undefined>;
  /** Requests HAProxy has open to a server now, over both backends (scur). */
  sessions(server: string): Promise<number>;
  /** Waits until every backend has the server in the given state (UP or DOWN). */
  waitFor(server: string, state: 'UP' | 'DOWN', ms?: number): Promise<void>;
}

/**
 * HAProxy in front of the Cairn hosts: the API port and the edge proxy port, each balanced round robin over
 * the hosts, checked with GET /readyz on the API port every 300 ms (2 failures: down, 2 successes: up).
 * A connection that fails is retried on another host (retries, redispatch); an answer the host started is
 * never retried (HAProxy's default retry-on conn-failure), so a non-idempotent request is sent at most once.
 * Connections to the hosts are not reused between requests (http-server-close).
 */
export async function startBalancer(network: Network, host: string, dir: string, backends: string[]) {
  const { address } = network.hosts[host]!;
  const socket = join(dir, 'haproxy.sock');
  const servers = (port: number) =>
    backends.map((b) => `  server ${b} ${network.hosts[b]!.address}:${port} check port 8080`).join('\n');
  const config = `global
  stats socket ${socket} mode 600 level admin
  maxconn 4000

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout http-request 10s
  timeout queue 10s
  # Without it a check's timeout is 'inter' (300 ms): a loaded host answering /readyz slower is taken out.
  timeout check 3s
  retries 3
  option redispatch 1
  option http-server-close
  option httpchk GET /readyz
  http-check expect status 200
  default-server inter 300ms fastinter 200ms downinter 300ms fall 2 rise 2

frontend api
  bind ${address}:8080
  default_backend cairn_api

frontend edge
  bind ${address}:8081
  default_backend cairn_edge

backend cairn_api
  balance roundrobin
${servers(8080)}

backend cairn_edge
  balance roundrobin
${servers(8081)}
`;
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  execFileSync('haproxy', ['-c', '-q', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  const proc = run(network, host, ['haproxy', '-db', '-f', file]);
  const stats = () =>
    new Promise<string>((resolve, reject) => {
      const conn = createConnection(socket);
      let text = '';
      conn.on('data', (c: Buffer) => (text += c.toString()));
      conn.on('end', () => resolve(text));
      conn.on('error', reject);
      conn.end('show stat\n');
    });
  const balancer: Balancer = {
    proc,
    async status(backend, server) {
      for (const line of (await stats()).split('\n')) {
        const cells = line.split(',');
        if (cells[0] === backend && cells[1] === server) return cells[17];
      }
      return undefined;
    },
    async sessions(server) {
      let n = 0;
      for (const line of (await stats()).split('\n')) {
        const cells = line.split(',');
        if (cells[1] === server && cells[0]?.startsWith('cairn_')) n += Number(cells[4] ?? 0);
      }
      return n;
    },
    async waitFor(server, state, ms = 60_000) {
      await until(`HAProxy to see ${server} ${state}`, ms, async () => {
        for (const backend of ['cairn_api', 'cairn_edge']) {
          const status = await balancer.status(backend, server);
          if (status?.split(' ')[0] !== state) return undefined;
        }
        return true;
      });
    },
  };
  await until(
    'HAProxy stats socket',
    30_000,
    async () => ((await stats()).length > 0 ? true : undefined),
    proc,
  );
  return { balancer, url: `http://${address}:8080`, edgeUrl: `http://${address}:8081` };
}

export interface CairnHost {
  proc: Proc;
  url: string;
}

/** `cairn serve` in the host's namespace on ports 8080 and 8081; resolves once /readyz answers 200. */
export async function startCairn(
  network: Network,
  host: string,
  env: Record<string, string>,
): Promise<CairnHost> {
  const { address } = network.hosts[host]!;
  const proc = run(network, host, [process.execPath, CLI, 'serve'], {
    ...process.env,
    HOST: address,
    PORT: '8080',
    EDGE_PORT: '8081',
    LOG_LEVEL: 'warn',
    ...env,
  });
  const url = `http://${address}:8080`;
  await until(
    `cairn serve on ${host}`,
    180_000,
    async () => ((await fetch(`${url}/readyz`)).status === 200 ? true : undefined),
    proc,
  );
  return { proc, url };
}
