import { timingSafeEqual } from 'node:crypto';
import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { badRequest, bearerToken, bearerUnauthorized, type Db, hashToken } from '@cairn/kit';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ClockState } from './clock.ts';
import { credentialControls } from './credential-routes.ts';
import { CONTROL_PREFIX, type Fault, type FaultTable, parseFault } from './faults.ts';
import type { Sandbox } from './index.ts';
import { type JournalEntry, type RequestJournal, redactBody, redactHeaders, redactValue } from './journal.ts';
import type { SnapshotInfo } from './snapshots.ts';

interface PluginOptions {
  sandbox: Sandbox;
  faults: FaultTable;
  journal: RequestJournal;
  db: Db;
  /** A key known in advance (CAIRN_BOOTSTRAP_SERVICE_KEY, startCairn's); else the Demo organization's first. */
  fixedKey: string | undefined;
  organization: string;
}

const isControl = (path: string) => path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

function sameHash(a: string, b: string | undefined): boolean {
  if (b === undefined || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** A fault as the HTTP controls show it. */
function faultJson(f: Fault) {
  return {
    id: f.id,
    route: f.route,
    method: f.method ?? null,
    status: f.status ?? null,
    retry_after: f.retryAfter ?? null,
    latency_ms: f.latencyMs ?? null,
    reset_connection: f.resetConnection ?? false,
    times: f.times ?? null,
    remaining: f.remaining ?? null,
    probability: f.probability ?? null,
    hits: f.hits,
  };
}

function entryJson(e: JournalEntry) {
  return {
    id: e.id,
    at: e.at,
    method: e.method,
    path: e.path,
    query: e.query,
    status: e.status,
    attribution: e.attribution
      ? {
          kind: e.attribution.kind,
          organization_id: e.attribution.organizationId,
          app_id: e.attribution.appId ?? null,
          user_id: e.attribution.userId ?? null,
        }
      : null,
    duration_ms: e.durationMs,
    request_id: e.requestId,
    headers: e.headers,
    body: e.body ?? null,
    fault: e.fault ?? null,
  };
}

const clockJson = (c: ClockState) => ({ now: c.now, frozen: c.frozen, offset_ms: c.offsetMs });

const snapshotJson = (s: SnapshotInfo) => ({
  name: s.name,
  created_at: s.createdAt,
  tables: s.tables,
  rows: s.rows,
});

function bodyObject(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('the body must be a JSON object');
  return body as Record<string, unknown>;
}

function queryText(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown>)[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest(`"${name}" must be given once`, { parameter: name });
  return value;
}

/**
 * The fault and journal hooks for every call to the API port (mounted at the root, outside any service's
 * encapsulation), and the controls under /_cairn/, which take the bootstrap service key.
 */
export function sandboxPlugin(options: PluginOptions): FastifyPluginAsync {
  const { sandbox, faults, journal, db } = options;
  const faultOf = new WeakMap<FastifyRequest, string>();
  const arrivedAt = new WeakMap<FastifyRequest, Date>();

  async function bootstrapHash(): Promise<string | undefined> {
    if (options.fixedKey) return hashToken(options.fixedKey);
    const { rows } = await db.query<{ token_hash: string }>(
      `SELECT k.token_hash FROM service_keys k JOIN organizations o ON o.id = k.organization_id
        WHERE o.name = $1 AND k.revoked_at IS NULL ORDER BY k.created_at, k.id LIMIT 1`,
      [options.organization],
    );
    return rows[0]?.token_hash;
  }

  function record(request: FastifyRequest, status: number, durationMs: number) {
    const path = pathOf(request.url);
    if (isControl(path)) return;
    const auth = request.auth;
    const query = redactValue(request.query ?? {}) as Record<string, string | string[]>;
    const body = redactBody(request.body);
    const fault = faultOf.get(request);
    journal.add({
      at: (arrivedAt.get(request) ?? sandbox.clock.now()).toISOString(),
      method: request.method,
      path,
      query,
      status,
      ...(auth
        ? {
            attribution: {
              kind: auth.kind,
              organizationId: auth.organizationId,
              ...(auth.appId ? { appId: auth.appId } : {}),
              ...(auth.userId !== undefined ? { userId: auth.userId } : {}),
            },
          }
        : {}),
      durationMs: Math.round(durationMs * 1000) / 1000,
      requestId: request.id,
      headers: redactHeaders(request.headers),
      ...(body !== undefined ? { body } : {}),
      ...(fault ? { fault } : {}),
    });
  }

  async function applyFault(request: FastifyRequest, reply: FastifyReply) {
    arrivedAt.set(request, sandbox.clock.now());
    const path = pathOf(request.url);
    const fault = faults.take(request.method, path);
    if (!fault) return;
    faultOf.set(request, fault.id);
    if (fault.latencyMs) await delay(fault.latencyMs);
    if (fault.resetConnection) {
      record(request, 0, reply.elapsedTime);
      reply.hijack();
      const socket = request.raw.socket as Socket;
      if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
      else socket.destroy();
      return reply;
    }
    if (fault.status !== undefined) {
      if (fault.retryAfter !== undefined) void reply.header('retry-after', String(fault.retryAfter));
      return reply.code(fault.status).send({
        message: `Injected by the sandbox: fault ${fault.id} answers ${fault.route} with ${fault.status}`,
      });
    }
    return undefined;
  }

  async function controls(app: FastifyInstance) {
    app.addHook('onRequest', async (request) => {
      const token = bearerToken(request);
      const expected = await bootstrapHash();
      if (!sameHash(hashToken(token), expected)) {
        throw bearerUnauthorized(
          'The sandbox controls take the bootstrap service key (CAIRN_BOOTSTRAP_SERVICE_KEY, or the key of the organization "Demo" printed on the first start)',
          'invalid_token',
        );
      }
    });
    const hide = { schema: { hide: true }, bodyLimit: 64 * 1024 };

    app.get('/', hide, async () => ({
      mode: 'sandbox',
      clock: clockJson(sandbox.clock.state()),
      controls: [
        'snapshots',
        'reset',
        'clock',
        'faults',
        'requests',
        'user-access-token',
        'session-token',
      ].map((c) => `${CONTROL_PREFIX}/${c}`),
    }));

    app.get('/snapshots', hide, async () => ({ snapshots: (await sandbox.list()).map(snapshotJson) }));
    app.post('/snapshots', hide, async (request, reply) => {
      const { name } = bodyObject(request);
      const taken = await sandbox.snapshot(name as string);
      return reply.code(taken.replaced ? 200 : 201).send({ snapshot: snapshotJson(taken) });
    });
    app.post<{ Params: { name: string } }>('/snapshots/:name/restore', hide, async (request) => ({
      snapshot: snapshotJson(await sandbox.restore(request.params.name)),
    }));
    app.delete<{ Params: { name: string } }>('/snapshots/:name', hide, async (request) => {
      await sandbox.remove(request.params.name);
      return { deleted: request.params.name };
    });

    app.post('/reset', hide, async () => {
      await sandbox.reset();
      return { reset: true, clock: clockJson(sandbox.clock.state()) };
    });

    app.get('/clock', hide, async () => clockJson(sandbox.clock.state()));
    app.post('/clock/freeze', hide, async () => clockJson(sandbox.clock.freeze()));
    app.post('/clock/resume', hide, async () => clockJson(sandbox.clock.resume()));
    app.post('/clock/advance', hide, async (request) => {
      const { by } = bodyObject(request);
      if (typeof by !== 'string' && typeof by !== 'number') {
        throw badRequest('"by" is required: milliseconds or a duration such as "10m", "1h30m" or "90s"', {
          pointer: '/by',
        });
      }
      return clockJson(sandbox.clock.advance(by));
    });
    app.post('/clock/set', hide, async (request) => {
      const { to } = bodyObject(request);
      if (typeof to !== 'string') {
        throw badRequest('"to" is required: an ISO 8601 date-time such as 2030-01-01T00:00:00Z', {
          pointer: '/to',
        });
      }
      return clockJson(sandbox.clock.set(to));
    });

    app.get('/faults', hide, async () => ({ faults: faults.list().map(faultJson) }));
    app.post('/faults', hide, async (request, reply) => {
      const b = bodyObject(request);
      // Checked as given (snake_case) so that errors name the fields the caller sent.
      parseFault(
        {
          route: b.route,
          method: b.method,
          status: b.status,
          retryAfter: b.retry_after,
          latencyMs: b.latency_ms,
          resetConnection: b.reset_connection,
          times: b.times,
          probability: b.probability,
        },
        'check',
      );
      const fault = faults.add({
        route: b.route as string,
        ...(b.method !== undefined ? { method: b.method as string } : {}),
        ...(b.status !== undefined ? { status: b.status as number } : {}),
        ...(b.retry_after !== undefined ? { retryAfter: b.retry_after as number } : {}),
        ...(b.latency_ms !== undefined ? { latencyMs: b.latency_ms as number } : {}),
        ...(b.reset_connection !== undefined ? { resetConnection: b.reset_connection as boolean } : {}),
        ...(b.times !== undefined ? { times: b.times as number } : {}),
        ...(b.probability !== undefined ? { probability: b.probability as number } : {}),
      });
      return reply.code(201).send({ fault: faultJson(fault) });
    });
    app.delete('/faults', hide, async () => ({ cleared: faults.clear() }));

    app.get('/requests', hide, async (request) => {
      const limit = queryText(request, 'limit');
      if (limit !== undefined && !/^\d{1,7}$/.test(limit)) {
        throw badRequest(`"limit" must be a whole number, got "${limit.slice(0, 20)}"`, {
          parameter: 'limit',
        });
      }
      const filter = {
        method: queryText(request, 'method'),
        path: queryText(request, 'path'),
        status: queryText(request, 'status'),
        since: queryText(request, 'since'),
        limit: limit === undefined ? undefined : Number(limit),
      };
      const entries = journal.list(
        Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)),
      );
      return { requests: entries.map(entryJson), dropped: journal.dropped };
    });
    app.delete('/requests', hide, async () => ({ cleared: journal.clear() }));

    await credentialControls(app, sandbox.credentials);
  }

  const plugin: FastifyPluginAsync = async (root) => {
    root.addHook('onRequest', applyFault);
    root.addHook('onResponse', async (request, reply) => {
      if (reply.statusCode !== 0) record(request, reply.statusCode, reply.elapsedTime);
    });
    await root.register(controls, { prefix: CONTROL_PREFIX });
  };
  // Mounted at the root context (what fastify-plugin does), so the hooks see every service's routes.
  Object.assign(plugin, { [Symbol.for('skip-override')]: true });
  return plugin;
}
