import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createZone, type Zone } from '../src/index.ts';
import { deployManaged, type ProxyFixture, startProxyFixture } from './proxy-fixture.ts';
import { openSocket, parseAnswers, readAll } from './raw-http.ts';

// WebSockets through the edge proxy (issue 16, point 3): the Upgrade handshake goes through the zone's WAF
// like any request; an allowed upgrade is tunnelled both ways, a blocked one gets the block page and is
// recorded in Security Events. The client speaks WebSocket frames over a raw socket; the origin is a
// node:http server that accepts the handshake, greets, and echoes each frame back upper-cased.
let f: ProxyFixture;
let origin: Server;
let zone: Zone;
const seen: IncomingMessage[] = [];

/** A WebSocket frame with a short text payload (RFC 6455 §5.2), masked when the client sends it. */
function frame(text: string, masked: boolean): Buffer {
  const payload = Buffer.from(text);
  if (!masked) return Buffer.concat([Buffer.from([0x81, payload.length]), payload]);
  const mask = Buffer.from([1, 2, 3, 4]);
  return Buffer.concat([
    Buffer.from([0x81, 0x80 | payload.length]),
    mask,
    payload.map((b, i) => b ^ (mask[i % 4] as number)),
  ]);
}

/** The text of every frame in `bytes` (short text frames only, masked or not). */
function texts(bytes: Buffer): string[] {
  const out: string[] = [];
  let i = 0;
  while (i + 2 <= bytes.length) {
    const masked = ((bytes[i + 1] as number) & 0x80) !== 0;
    const length = (bytes[i + 1] as number) & 0x7f;
    const mask = masked ? bytes.subarray(i + 2, i + 6) : undefined;
    const start = i + 2 + (masked ? 4 : 0);
    const payload = Buffer.from(bytes.subarray(start, start + length));
    if (mask)
      for (let k = 0; k < payload.length; k++) payload[k] = (payload[k] as number) ^ (mask[k % 4] as number);
    out.push(payload.toString());
    i = start + length;
  }
  return out;
}

const accept = (key: string) =>
  createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');

beforeAll(async () => {
  f = await startProxyFixture();
  origin = createServer((_req, res) =>
    res.writeHead(426, { 'content-type': 'text/plain' }).end('upgrade only'),
  );
  origin.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    seen.push(req);
    if (req.url === '/ws/refused') {
      socket.end(
        'HTTP/1.1 403 Forbidden\r\nContent-Length: 7\r\nConnection: close, x-hop\r\nX-Hop: must not pass\r\n' +
          'X-Origin: yes\r\n\r\nno room',
      );
      return;
    }
    socket.write(
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        `Sec-WebSocket-Accept: ${accept(String(req.headers['sec-websocket-key']))}\r\n\r\n`,
    );
    socket.write(frame('hello from the origin', false));
    socket.on('end', () => socket.end());
    socket.on('data', (bytes: Buffer) => {
      for (const text of texts(bytes)) socket.write(frame(text.toUpperCase(), false));
    });
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  zone = await createZone(f.edge.deps, {
    accountId: f.accountId,
    name: 'ws.example.com',
    plan: 'enterprise',
    origin: url,
  });
  await f.deps.db.query(`UPDATE edge_zones SET waf_migration_state = 'complete' WHERE id = $1`, [zone.id]);
  await deployManaged(f, zone.id);
}, 60_000);

afterAll(async () => {
  origin?.closeAllConnections();
  await new Promise((r) => origin?.close(r));
  await f?.close();
});

const KEY = 'dGhlIHNhbXBsZSBub25jZQ==';
const handshake = (target: string) =>
  `GET ${target} HTTP/1.1\r\nHost: ws.example.com\r\nUser-Agent: Mozilla/5.0 cairn-test\r\n` +
  `Accept: */*\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${KEY}\r\n` +
  'Sec-WebSocket-Version: 13\r\nOrigin: http://ws.example.com\r\n\r\n';

/** Reads from the socket until `done(bytes so far)`. */
function readUntil(socket: Socket, done: (bytes: Buffer) => boolean): Promise<Buffer> {
  return new Promise((resolve) => {
    let all = Buffer.alloc(0);
    const onData = (c: Buffer) => {
      all = Buffer.concat([all, c]);
      if (done(all)) {
        socket.off('data', onData);
        resolve(all);
      }
    };
    socket.on('data', onData);
  });
}

describe('WebSocket upgrades through the edge', () => {
  it('an allowed upgrade passes the WAF, gets the origin 101 and is tunnelled both ways', async () => {
    const socket = await openSocket(f.proxy.address);
    const greeting = readUntil(socket, (b) => texts(b.subarray(b.indexOf('\r\n\r\n') + 4)).length >= 1);
    socket.write(handshake('/ws/chat?room=tents'));
    const first = await greeting;
    const head = first.subarray(0, first.indexOf('\r\n\r\n')).toString('latin1');
    expect(head).toMatch(/^HTTP\/1\.1 101 /);
    expect(head).toContain(`Sec-WebSocket-Accept: ${accept(KEY)}`);
    expect(head).toMatch(/\r\ncf-ray: [0-9a-f]{16}-CRN/);
    expect(texts(first.subarray(first.indexOf('\r\n\r\n') + 4))).toEqual(['hello from the origin']);
    // client → origin → client, twice, on the same tunnel
    for (const message of ['two person tent', 'and a stove']) {
      const echoed = readUntil(socket, (b) => texts(b).length >= 1);
      socket.write(frame(message, true));
      expect(texts(await echoed)).toEqual([message.toUpperCase()]);
    }
    const req = seen.at(-1);
    expect(req?.url).toBe('/ws/chat?room=tents');
    expect(req?.headers.upgrade).toBe('websocket');
    expect(req?.headers.connection).toBe('Upgrade');
    expect(req?.headers['x-forwarded-for']).toBe('127.0.0.1');
    // the client's close reaches the origin, whose close comes back
    const closed = readAll(socket);
    socket.end();
    expect(await closed).toBe('');
  });

  it('a blocked upgrade gets the block page, never reaches the origin, and is a Security Event', async () => {
    const before = seen.length;
    const socket = await openSocket(f.proxy.address);
    const all = readAll(socket);
    socket.write(handshake('/ws/chat?room=%3Cscript%3Ealert(document.cookie)%3C%2Fscript%3E'));
    const [answer] = parseAnswers(await all);
    expect(answer?.status).toBe(403);
    expect(answer?.head).toMatch(/\r\ncf-mitigated: block/);
    expect(answer?.body).toContain('Sorry, you have been blocked');
    expect(seen.length).toBe(before);
    const events = await f.events(zone.id, '?action=block');
    expect(events.find((e) => e.path === '/ws/chat')).toMatchObject({
      method: 'GET',
      host: 'ws.example.com',
      action: 'block',
    });
  });

  it('an origin that refuses the upgrade: its answer is relayed and the connection closed', async () => {
    const socket = await openSocket(f.proxy.address);
    const all = readAll(socket);
    socket.write(handshake('/ws/refused'));
    const [answer] = parseAnswers(await all);
    expect(answer?.status).toBe(403);
    expect(answer?.body).toBe('no room');
    expect(answer?.head).toMatch(/\r\nconnection: close/i);
    // a field the origin's Connection names is hop-by-hop: not relayed (RFC 9110 §7.6.1)
    expect(answer?.head).not.toMatch(/x-hop/i);
    expect(answer?.head).toMatch(/\r\nx-origin: yes/i);
  });
});
