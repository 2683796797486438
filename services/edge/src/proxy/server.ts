import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Duplex, Readable } from 'node:stream';
import type { Clock, Logger } from '@cairn/kit';
import type { EdgeEngine } from '../engine/engine.ts';
import type { ZonePlan } from '../engine/plan.ts';
import type { EdgeRequest } from '../engine/request.ts';
import { type RequestUrls, requestUrls } from '../engine/url-normalization.ts';
import type { Terminal } from '../engine/verdict.ts';
import type { EventRecorder } from '../events/recorder.ts';
import { type BufferedBody, bufferBody, bufferMultipartBody } from './body.ts';
import { answerClientErrors, serving } from './client-errors.ts';
import type { ProxyConfig } from './config.ts';
import { capConnectionsPerAddress } from './connection-cap.ts';
import { OriginExchange, send } from './exchange.ts';
import { hostFieldCount, originRequestHeaders } from './headers.ts';
import { HeldBytes } from './held-bytes.ts';
import { formDataContentType } from './multipart-view.ts';
import { Origins } from './origins.ts';
import {
  badGatewayPage,
  badRequestPage,
  blockedPage,
  challengePage,
  type EdgePage,
  gatewayTimeoutPage,
  methodNotAllowedPage,
  noOriginPage,
  noZonePage,
} from './pages.ts';
import { newRayId } from './ray-id.ts';
import { tunnel, upgradeRequestHeaders, writePage } from './upgrade.ts';

export interface ProxyDeps {
  engine: EdgeEngine;
  recorder: EventRecorder;
  clock: Clock;
  log: Logger;
}

export interface EdgeProxy {
  readonly server: Server;
  /** `http://host:port` */
  readonly address: string;
  readonly port: number;
  /** Stops accepting, lets requests in flight finish (up to the grace period), then closes everything. */
  close(): Promise<void>;
}

/** What `route` knows of a request whose zone's plan inspects it. */
interface Inspected {
  host: string;
  /** The request target as received, in origin-form. */
  target: string;
  urls: RequestUrls;
  contentLength: number | undefined;
  hasBody: boolean;
}

/** What the edge does with a request: answer a page itself, or send it to the origin. */
type Routed =
  | { page: EdgePage; close?: boolean }
  | {
      origin: string;
      path: string;
      host: string;
      body: Buffer | AsyncIterable<Buffer> | IncomingMessage | undefined;
    };

function terminalPage(terminal: Terminal, host: string, rayId: string): EdgePage {
  const custom = terminal.response;
  if (custom) {
    return {
      status: custom.statusCode,
      headers: { 'content-type': custom.contentType, 'cache-control': 'no-store', 'cf-mitigated': 'block' },
      body: custom.content,
    };
  }
  return terminal.action === 'block' ? blockedPage(host, rayId) : challengePage(host, rayId, terminal.action);
}

function clientIp(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? '';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

function hostOf(value: string | undefined): string {
  if (!value) return '';
  const v = value.trim().toLowerCase();
  if (v.startsWith('[')) return v.slice(0, v.indexOf(']') + 1);
  const colon = v.lastIndexOf(':');
  const name = colon < 0 ? v : v.slice(0, colon);
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/**
 * The request target in origin-form (RFC 9112 §3.2): a path as is, the absolute-form a client may send
 * (`http://host/path?q`) as its path and query (the zone is still the Host header's); anything else
 * (`*`, an authority, `?q`) is no resource of a zone: undefined.
 */
function originForm(target: string): string | undefined {
  if (target.startsWith('/')) return target;
  const absolute = /^https?:\/\/[^/?#]*/i.exec(target);
  if (!absolute) return undefined;
  const rest = target.slice(absolute[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

function contentLengthOf(req: IncomingMessage): number | undefined {
  const raw = req.headers['content-length'];
  return raw === undefined ? undefined : Number(raw);
}

/**
 * The edge data plane: a raw node:http server that routes by Host to a zone, runs the zone's plan on the
 * request (the body buffered up to the inspection limit only when something inspects it), records the
 * security events, and streams the request to the zone's origin through an undici Pool and the answer back.
 */
export function createEdgeProxy(deps: ProxyDeps, config: Readonly<ProxyConfig>) {
  const origins = new Origins(config);
  const held = new HeldBytes(config.multipartMemory);

  /**
   * Host → zone → plan → the WAF's verdict (events recorded): the page the edge answers itself, or where to
   * send the request. An upgrade request's body is not read (the bytes after its head belong to the tunnel).
   * Answered at once when the Host's plan is cached and nothing inspects the request (the common case: no
   * promise, no microtask); a promise otherwise.
   */
  function route(req: IncomingMessage, rayId: string, upgrade = false): Routed | Promise<Routed> {
    const host = hostOf(req.headers.host);
    if (!host) return { page: badRequestPage(rayId) };
    // RFC 9112 §3.2: more than one Host field line is a 400 (which host would the rules see?).
    if (hostFieldCount(req.rawHeaders) > 1)
      return { page: badRequestPage(rayId, 'The request has more than one Host header.') };
    const cached = deps.engine.cachedPlanForHost(host);
    if (cached !== undefined) return routeTo(req, rayId, upgrade, host, cached ?? undefined);
    return planForHost(host).then((plan) => routeTo(req, rayId, upgrade, host, plan));
  }

  async function planForHost(host: string): Promise<ZonePlan | undefined> {
    const zoneId = await deps.engine.zoneIdForHost(host);
    return zoneId === undefined ? undefined : deps.engine.planFor(zoneId);
  }

  /** The rest of `route` once the Host's plan is known (undefined: no zone serves the Host). */
  function routeTo(
    req: IncomingMessage,
    rayId: string,
    upgrade: boolean,
    host: string,
    plan: ZonePlan | undefined,
  ): Routed | Promise<Routed> {
    if (!plan) return { page: noZonePage(host, rayId) };
    // CONNECT's authority-form target goes to the rules as is (it is answered by the edge, never forwarded)
    const target = req.method === 'CONNECT' ? (req.url ?? '') : originForm(req.url ?? '/');
    if (target === undefined)
      return { page: badRequestPage(rayId, 'The request target must be a path starting with "/".') };
    // the normalised URL is for the rules, and for the origin only with scope "both": not computed when
    // neither needs it
    const urls =
      plan.inspects || plan.urlNormalization.scope === 'both'
        ? requestUrls(plan.urlNormalization, target)
        : { inspected: target, forwarded: target };

    const contentLength = contentLengthOf(req);
    const hasBody =
      !upgrade &&
      ((contentLength !== undefined && contentLength > 0) || req.headers['transfer-encoding'] !== undefined);
    if (plan.inspects) return inspect(req, rayId, plan, { host, target, urls, contentLength, hasBody });
    const origin = plan.zone.origin;
    if (!origin) return { page: noOriginPage(host, rayId) };
    return { origin, path: urls.forwarded, host, body: hasBody ? req : undefined };
  }

  /** The plan's verdict on the request (its body buffered up to the inspection limit), events recorded. */
  async function inspect(
    req: IncomingMessage,
    rayId: string,
    plan: ZonePlan,
    { host, target, urls, contentLength, hasBody }: Inspected,
  ): Promise<Routed> {
    let body: BufferedBody | undefined;
    if (hasBody) body = await readBody(req, contentLength);
    const request: EdgeRequest = {
      method: req.method ?? 'GET',
      url: urls.inspected,
      rawUrl: target,
      httpVersion: req.httpVersion,
      rawHeaders: req.rawHeaders,
      ip: clientIp(req),
      host,
      scheme: 'http',
      port: req.socket.localPort ?? 0,
      ...(body ? { body: body.head } : {}),
      bodyTruncated: body?.truncated ?? false,
      rayId,
      timestamp: deps.clock.now().getTime(),
      zone: { name: plan.zone.name, plan: plan.zone.plan },
    };
    // a promise only when the CRS runs on the worker pool (an expensive request)
    const evaluated = deps.engine.decide(plan, request);
    const verdict = evaluated instanceof Promise ? await evaluated : evaluated;
    if (verdict.events.length > 0) {
      const q = request.url.indexOf('?');
      deps.recorder.record(
        plan.zone.id,
        request,
        q < 0 ? request.url : request.url.slice(0, q),
        q < 0 ? '' : request.url.slice(q + 1),
        verdict.events,
      );
    }
    if (verdict.terminal)
      return {
        page: terminalPage(verdict.terminal, host, rayId),
        close: body !== undefined && !body.complete,
      };
    const origin = plan.zone.origin;
    if (!origin) return { page: noOriginPage(host, rayId) };
    return { origin, path: urls.forwarded, host, body: hasBody ? (body?.forward() ?? req) : undefined };
  }

  /**
   * The body up to the inspection limit; a multipart/form-data body held whole, its files not counted,
   * while the process's held bytes allow it (else it is read as any body: truncated, so blocked).
   */
  function readBody(req: IncomingMessage, contentLength: number | undefined): Promise<BufferedBody> {
    const formData = formDataContentType(req.rawHeaders);
    const hold = contentLength ?? config.multipartLimit;
    if (
      formData === undefined ||
      hold > config.multipartLimit ||
      config.multipartLimit <= config.bodyLimit ||
      !held.reserve(req, hold)
    )
      return bufferBody(req, config.bodyLimit, contentLength);
    const limits = { inspectLimit: config.bodyLimit, holdLimit: config.multipartLimit };
    return bufferMultipartBody(req, limits, contentLength, formData);
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const rayId = newRayId();
    res.once('close', () => held.release(req));
    const routed = route(req, rayId);
    if (routed instanceof Promise)
      routed.then(
        (r) => answer(req, res, r, rayId),
        (error: unknown) => failed(req, res, error),
      );
    else answer(req, res, routed, rayId);
  }

  function answer(req: IncomingMessage, res: ServerResponse, routed: Routed, rayId: string): void {
    if ('page' in routed) {
      if (routed.close) res.shouldKeepAlive = false;
      send(res, routed.page, rayId, req.method === 'HEAD');
    } else forward(req, res, routed.origin, routed.path, routed.host, rayId, routed.body);
  }

  function failed(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    deps.log.error({ err: error }, 'edge: request failed');
    const rayId = newRayId();
    send(res, badGatewayPage(hostOf(req.headers.host), rayId), rayId);
  }

  /** A WebSocket (or other) upgrade: through the WAF like any request, then tunnelled to the origin. */
  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const rayId = newRayId();
    const routed = await route(req, rayId, true);
    if ('page' in routed) return writePage(socket, routed.page, `${rayId}-CRN`);
    tunnel({
      origin: routed.origin,
      method: req.method ?? 'GET',
      path: routed.path,
      headers: upgradeRequestHeaders(
        req.rawHeaders,
        originRequestHeaders(req.rawHeaders, {
          clientIp: clientIp(req),
          proto: 'http',
          host: routed.host,
          rayId,
        }),
      ),
      client: socket,
      head,
      rayHeader: `${rayId}-CRN`,
      timeoutMs: config.originTimeoutMs,
      failed: (timedOut, error) => {
        deps.log.warn(
          { origin: routed.origin, rayId },
          `edge: upgrade to the origin failed: ${error.message}`,
        );
        const host = routed.host;
        writePage(
          socket,
          timedOut ? gatewayTimeoutPage(host, rayId) : badGatewayPage(host, rayId),
          `${rayId}-CRN`,
        );
      },
    });
  }

  /**
   * Sends the request to the origin and its answer to the client as it arrives — undici's dispatch API
   * straight into the ServerResponse (no promise, stream pipeline or AbortController per request): the
   * origin's body is written chunk by chunk with backpressure (undici pauses while the client's socket is
   * full), and a client that goes away aborts the origin request (its upload too).
   */
  function forward(
    req: IncomingMessage,
    res: ServerResponse,
    origin: string,
    path: string,
    host: string,
    rayId: string,
    body: Buffer | AsyncIterable<Buffer> | IncomingMessage | undefined,
  ): void {
    // a client gone while its request was routed (its 'close' came before the exchange listened): nothing
    // is sent to the origin for it
    if (res.destroyed) return;
    origins.pool(origin).dispatch(
      {
        path,
        method: (req.method ?? 'GET') as 'GET',
        headers: originRequestHeaders(req.rawHeaders, {
          clientIp: clientIp(req),
          proto: 'http',
          host,
          rayId,
        }),
        body:
          body === undefined
            ? null
            : Buffer.isBuffer(body) || body instanceof Readable
              ? body
              : Readable.from(body),
      },
      new OriginExchange(res, origin, host, rayId, deps.log),
    );
  }

  const server = createServer(
    {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      // how often node checks those timeouts (its default, 30 s, would let a slow head stay 40 s)
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(config.headersTimeoutMs / 4)),
    },
    (req, res) => {
      serving(req, res); // for answerClientErrors
      try {
        handle(req, res);
      } catch (error) {
        failed(req, res, error);
      }
    },
  );
  capConnectionsPerAddress(server, config.connectionsPerAddress);
  answerClientErrors(server);
  // CONNECT (a forward-proxy tunnel) is no request a reverse proxy serves: through the plan like any
  // request (so the WAF sees and records it), then 405 (400 for a target that is not host:port) unless
  // the plan answered first.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    const rayId = newRayId();
    // (an async step: a route that throws is a rejection, answered 502 below)
    (async () => route(req, rayId, true))()
      .then((routed) => {
        const host = hostOf(req.headers.host);
        // RFC 9110 §9.3.6: a CONNECT target is host:port; anything else is a bad request
        const page =
          'page' in routed
            ? routed.page
            : /^[^\s/@]+:\d{1,5}$/.test(req.url ?? '')
              ? methodNotAllowedPage(host, rayId, 'CONNECT')
              : badRequestPage(rayId, 'A CONNECT target must be host:port.');
        writePage(socket, page, `${rayId}-CRN`);
      })
      .catch((error: unknown) => {
        deps.log.error({ err: error }, 'edge: CONNECT failed');
        writePage(socket, badGatewayPage(hostOf(req.headers.host), rayId), `${rayId}-CRN`);
      });
  });
  // Upgraded connections leave node:http's bookkeeping (closeAllConnections does not see them).
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    upgrade(req, socket, head).catch((error: unknown) => {
      deps.log.error({ err: error }, 'edge: upgrade failed');
      const rayId = newRayId();
      writePage(socket, badGatewayPage(hostOf(req.headers.host), rayId), `${rayId}-CRN`);
    });
  });

  return {
    server,
    async listen(port: number, hostname: string): Promise<EdgeProxy> {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, hostname, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const address = server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return {
        server,
        address: `http://${shown}:${address.port}`,
        port: address.port,
        async close() {
          const closed = new Promise<void>((resolve) => server.close(() => resolve()));
          server.closeIdleConnections();
          const grace = setTimeout(() => {
            server.closeAllConnections();
            for (const socket of upgraded) socket.destroy();
          }, config.shutdownGraceMs);
          grace.unref();
          await closed;
          clearTimeout(grace);
          await origins.close();
        },
      };
    },
  };
}
