import { request as httpRequest, type IncomingMessage, STATUS_CODES } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import { listedNames } from './headers.ts';
import type { EdgePage } from './pages.ts';

/** A page written straight on a socket (an upgrade request has no ServerResponse), then the socket closed. */
export function writePage(socket: Duplex, page: EdgePage, rayHeader: string): void {
  if (socket.destroyed) return;
  const body = Buffer.from(page.body);
  const lines = [`HTTP/1.1 ${page.status} ${STATUS_CODES[page.status] ?? 'Status'}`];
  for (const [name, value] of Object.entries(page.headers)) lines.push(`${name}: ${value}`);
  lines.push(`cf-ray: ${rayHeader}`, `content-length: ${body.length}`, 'connection: close', '', '');
  socket.end(Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), body]));
}

/**
 * The origin's request headers for an upgrade: the forwarded ones (hop-by-hop and Content-Length dropped)
 * plus the two hop-by-hop fields an upgrade needs, `Connection: Upgrade` and the client's `Upgrade`.
 */
export function upgradeRequestHeaders(clientRaw: readonly string[], forwarded: string[]): string[] {
  // no body is sent before the switch (the bytes after the head are the tunnel's): no Content-Length
  const out: string[] = [];
  for (let i = 0; i + 1 < forwarded.length; i += 2)
    if ((forwarded[i] as string).toLowerCase() !== 'content-length')
      out.push(forwarded[i] as string, forwarded[i + 1] as string);
  for (let i = 0; i + 1 < clientRaw.length; i += 2)
    if ((clientRaw[i] as string).toLowerCase() === 'upgrade') out.push('Upgrade', clientRaw[i + 1] as string);
  out.push('Connection', 'Upgrade');
  return out;
}

/** The origin's answer head as raw bytes, with the ray id and without the fields `drop` names. */
function rawHead(res: IncomingMessage, rayHeader: string, drop: Set<string>, extra: string[] = []): Buffer {
  const lines = [`HTTP/1.1 ${res.statusCode} ${res.statusMessage ?? ''}`];
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2)
    if (!drop.has((raw[i] as string).toLowerCase())) lines.push(`${raw[i]}: ${raw[i + 1]}`);
  lines.push(`cf-ray: ${rayHeader}`, ...extra, '', '');
  return Buffer.from(lines.join('\r\n'), 'latin1');
}

const NOT_RELAYED = new Set(['cf-ray']);
const NOT_RELAYED_REFUSAL = new Set(['cf-ray', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade']);

/** The fields of a refusal that are not relayed: the hop-by-hop ones, and those its `Connection` names. */
function notRelayedRefusal(res: IncomingMessage): Set<string> {
  const listed = res.headers.connection;
  const extra = listed ? listedNames(listed, undefined) : undefined;
  return extra ? new Set([...NOT_RELAYED_REFUSAL, ...extra]) : NOT_RELAYED_REFUSAL;
}

export interface TunnelOptions {
  origin: string;
  method: string;
  path: string;
  headers: string[];
  /** The client's socket, as node:http hands it over on 'upgrade'. */
  client: Duplex;
  /** Bytes the client sent after the request head. */
  head: Buffer;
  rayHeader: string;
  /** The origin must answer the upgrade within this. */
  timeoutMs: number;
  /** The origin could not be reached, reset, or did not answer in time: answer the client. */
  failed(timedOut: boolean, error: Error): void;
}

/**
 * Sends the upgrade request to the origin. On `101` the origin's answer goes to the client and the two
 * sockets are joined both ways until either closes; any other answer is relayed and the connection closed.
 */
export function tunnel(o: TunnelOptions): void {
  const url = new URL(o.origin);
  let timedOut = false;
  const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)({
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port || (url.protocol === 'https:' ? 443 : 80),
    method: o.method,
    path: o.path,
    headers: o.headers,
    setHost: false,
    agent: false,
  });
  request.setTimeout(o.timeoutMs, () => {
    timedOut = true;
    request.destroy(new Error(`no answer within ${o.timeoutMs} ms`));
  });
  const clientGone = () => request.destroy();
  o.client.once('close', clientGone);
  request.on('error', (error) => {
    o.client.off('close', clientGone);
    o.failed(timedOut, error);
  });
  request.on('upgrade', (res: IncomingMessage, upstream: Duplex, upstreamHead: Buffer) => {
    request.setTimeout(0);
    o.client.off('close', clientGone);
    const client = o.client;
    const close = () => {
      upstream.destroy();
      client.destroy();
    };
    upstream.on('error', close);
    upstream.once('close', close);
    client.once('close', close);
    client.write(rawHead(res, o.rayHeader, NOT_RELAYED));
    if (upstreamHead.length > 0) client.write(upstreamHead);
    if (o.head.length > 0) upstream.write(o.head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  request.on('response', (res: IncomingMessage) => {
    request.setTimeout(0);
    o.client.write(rawHead(res, o.rayHeader, notRelayedRefusal(res), ['connection: close']));
    res.pipe(o.client);
    res.on('error', () => o.client.destroy());
  });
  request.end();
}
