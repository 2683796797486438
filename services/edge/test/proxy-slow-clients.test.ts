import type { Socket } from 'node:net';
import { ConfigError } from '@cairn/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProxyConfig } from '../src/index.ts';
import { type ProxyFixture, startProxyFixture } from './proxy-fixture.ts';
import { exchange, openSocket, parseAnswers, readAll } from './raw-http.ts';

// Slow clients (issue 16, point 3): many connections sending their request head a byte a second must
// not keep a normal request from being answered. A client address holds at most
// EDGE_CONNECTIONS_PER_ADDRESS connections, and a head not complete within EDGE_HEADERS_TIMEOUT_MS
// gets 408 and the connection closes. The slow clients come from 127.0.0.2, the normal one from 127.0.0.1.
let f: ProxyFixture;
const CAP = 50;
const SLOW = 200;

beforeAll(async () => {
  f = await startProxyFixture({ EDGE_HEADERS_TIMEOUT_MS: '1000', EDGE_CONNECTIONS_PER_ADDRESS: String(CAP) });
  await f.zone('plain.example.com', 'pro');
}, 60_000);
afterAll(() => f?.close());

interface Slow {
  socket: Socket;
  /** What the proxy sent before closing. */
  received: Promise<string>;
  closed: boolean;
}

/** A connection that sends a request head one byte a second, never finishing in time. */
async function slowClient(): Promise<Slow> {
  const socket = await openSocket(f.proxy.address, '127.0.0.2');
  socket.on('error', () => {});
  const head = 'GET /echo/slow HTTP/1.1\r\nHost: plain.example.com\r\nX-Pad: 0123456789\r\n\r\n';
  let i = 0;
  const timer = setInterval(() => {
    if (!socket.destroyed && i < head.length) socket.write(head[i++] as string);
  }, 1000);
  timer.unref();
  socket.write(head[i++] as string);
  const slow: Slow = { socket, received: readAll(socket), closed: false };
  socket.once('close', () => {
    slow.closed = true;
    clearInterval(timer);
  });
  return slow;
}

describe('slow clients', () => {
  it(`${SLOW} slow connections from one address: ${CAP} are kept until the headers timeout (408), the rest closed at once; a normal request is answered meanwhile`, async () => {
    const before = f.origin.seen.length;
    const slow = await Promise.all(Array.from({ length: SLOW }, () => slowClient()));
    const normal = parseAnswers(
      await exchange(
        f.proxy.address,
        'GET /echo/normal HTTP/1.1\r\nHost: plain.example.com\r\nConnection: close\r\n\r\n',
      ),
    );
    expect(normal.map((a) => a.status)).toEqual([200]);
    const received = await Promise.all(slow.map((s) => s.received));
    const timedOut = received.filter((text) => text.startsWith('HTTP/1.1 408 '));
    const refused = received.filter((text) => text === '');
    expect(timedOut.length).toBe(CAP);
    expect(refused.length).toBe(SLOW - CAP);
    expect(slow.every((s) => s.closed)).toBe(true);
    // only the normal request reached the origin
    expect(f.origin.seen.slice(before).map((s) => s.url)).toEqual(['/echo/normal']);
    // the address's slots are free again
    const again = parseAnswers(
      await exchange(
        f.proxy.address,
        'GET /echo/again HTTP/1.1\r\nHost: plain.example.com\r\nConnection: close\r\n\r\n',
        '127.0.0.2',
      ),
    );
    expect(again.map((a) => a.status)).toEqual([200]);
  }, 30_000);

  it('the timeouts and the cap are checked settings', () => {
    const config = loadProxyConfig({});
    expect(config.headersTimeoutMs).toBe(10_000);
    expect(config.requestTimeoutMs).toBe(300_000);
    expect(config.connectionsPerAddress).toBe(256);
    expect(() =>
      loadProxyConfig({ EDGE_HEADERS_TIMEOUT_MS: '5000', EDGE_REQUEST_TIMEOUT_MS: '4000' }),
    ).toThrow(ConfigError);
    expect(() => loadProxyConfig({ EDGE_CONNECTIONS_PER_ADDRESS: '0' })).toThrow(
      /EDGE_CONNECTIONS_PER_ADDRESS/,
    );
  });
});
