import { createHash, randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createZone, type Zone } from '../src/index.ts';
import { type ProxyFixture, type Seen, startProxyFixture } from './proxy-fixture.ts';
import { exchange, openSocket, parseAnswers, readAll } from './raw-http.ts';

// HTTP/1.1 at the edge proxy, over raw sockets so no client library tidies the bytes (issue 16, point 3):
// request smuggling shapes are refused, keep-alive, pipelining and chunked bodies work both ways, origin
// failures are answered 502/504 without retrying, and a client that gives up mid-upload gives up at the
// origin too.
let f: ProxyFixture;
let guarded: Zone;

beforeAll(async () => {
  f = await startProxyFixture();
  await f.zone('plain.example.com', 'pro');
  guarded = await f.zone('guarded.example.com', 'pro');
  const put = await f.call(
    'PUT',
    `/zones/${guarded.id}/rulesets/phases/http_request_firewall_custom/entrypoint`,
    { rules: [{ action: 'block', expression: 'http.request.uri.path eq "/never-used"' }] },
  );
  expect(put.status, put.text).toBe(200);
}, 60_000);

afterAll(() => f?.close());

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const HOSTS = ['plain.example.com', 'guarded.example.com'];

async function zoneAt(name: string, origin: string): Promise<Zone> {
  return createZone(f.edge.deps, { accountId: f.accountId, name, plan: 'pro', origin });
}

function listen(server: Server | ReturnType<typeof createHttpServer>): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

describe('request framing the proxy refuses (RFC 9112 §6.1, §6.3, §5.2)', () => {
  const cases: Array<[string, string]> = [
    [
      'Content-Length with Transfer-Encoding',
      'POST /echo HTTP/1.1\r\nHost: H\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
    [
      'two different Content-Length fields',
      'POST /echo HTTP/1.1\r\nHost: H\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!',
    ],
    [
      'two equal Content-Length fields',
      'POST /echo HTTP/1.1\r\nHost: H\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello',
    ],
    ['a folded header (obs-fold)', 'GET /echo HTTP/1.1\r\nHost: H\r\nX-Long: a\r\n  b\r\n\r\n'],
    [
      'Transfer-Encoding that is not chunked last',
      'POST /echo HTTP/1.1\r\nHost: H\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n',
    ],
  ];
  for (const [what, bytes] of cases) {
    it(`${what} → 400, nothing reaches the origin`, async () => {
      for (const host of HOSTS) {
        const before = f.origin.seen.length;
        const answers = parseAnswers(
          await exchange(f.proxy.address, bytes.replace('Host: H', `Host: ${host}`)),
        );
        expect(
          answers.map((a) => a.status),
          `${what} on ${host}`,
        ).toEqual([400]);
        expect(f.origin.seen.length).toBe(before);
      }
    });
  }
  it('a request received whole, then bytes that are not a request: its answer first, then 400', async () => {
    for (const host of HOSTS) {
      // a form body one byte longer than its Content-Length, on a keep-alive connection
      const text = await exchange(
        f.proxy.address,
        `POST /echo/form HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 3\r\n\r\nabc=`,
      );
      const answers = parseAnswers(text);
      expect(
        answers.map((a) => a.status),
        host,
      ).toEqual([200, 400]);
      expect((JSON.parse(answers[0]?.body ?? '{}') as Seen).bodyLength).toBe(3);
      // junk after a request that asked to close: only its answer
      const closing = await exchange(
        f.proxy.address,
        `GET /echo/closing HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n\x00junk`,
      );
      expect(
        parseAnswers(closing).map((a) => a.status),
        host,
      ).toEqual([200]);
    }
  });
});

describe('request targets (RFC 9112 §3.2)', () => {
  it('absolute-form reaches the origin as its path; *, an authority or ?q alone → 400', async () => {
    for (const host of HOSTS) {
      const [abs] = parseAnswers(
        await exchange(
          f.proxy.address,
          `GET http://${host}/echo/abs?x=1 HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
        ),
      );
      expect(abs?.status, host).toBe(200);
      expect((JSON.parse(abs?.body ?? '{}') as Seen).url).toBe('/echo/abs?x=1');
      for (const target of ['*', 'example.net:80', '?x=1']) {
        const before = f.origin.seen.length;
        const method = target === '*' ? 'OPTIONS' : 'GET';
        const [answer] = parseAnswers(
          await exchange(
            f.proxy.address,
            `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
          ),
        );
        expect([400], `${target} on ${host}`).toContain(answer?.status ?? 0);
        expect(f.origin.seen.length).toBe(before);
      }
    }
  });
});

describe('CONNECT', () => {
  it('is no tunnel here: 405 for host:port, 400 for any other target; the origin sees nothing', async () => {
    const before = f.origin.seen.length;
    const [refused] = parseAnswers(
      await exchange(f.proxy.address, 'CONNECT 192.0.2.1:443 HTTP/1.1\r\nHost: plain.example.com\r\n\r\n'),
    );
    expect(refused?.status).toBe(405);
    expect(refused?.head).toMatch(/\r\nallow: GET/i);
    const [bad] = parseAnswers(
      await exchange(f.proxy.address, 'CONNECT www.example.net HTTP/1.1\r\nHost: plain.example.com\r\n\r\n'),
    );
    expect(bad?.status).toBe(400);
    expect(bad?.body).toContain('host:port');
    expect(f.origin.seen.length).toBe(before);
  });
});

describe('connections and bodies', () => {
  it('keep-alive: two requests one after the other on one connection', async () => {
    for (const host of HOSTS) {
      const socket = await openSocket(f.proxy.address);
      const all = readAll(socket);
      const first = new Promise<void>((resolve) => socket.once('data', () => resolve()));
      socket.write(`GET /echo/one HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      await first;
      socket.write(`GET /echo/two HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      const answers = parseAnswers(await all);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect(answers.map((a) => (JSON.parse(a.body) as Seen).url)).toEqual(['/echo/one', '/echo/two']);
    }
  });

  it('pipelining: three requests in one write are answered in order, bodies kept apart', async () => {
    for (const host of HOSTS) {
      const text = await exchange(
        f.proxy.address,
        `GET /echo/a HTTP/1.1\r\nHost: ${host}\r\n\r\n` +
          `POST /echo/b HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 11\r\n\r\nhello world` +
          `GET /echo/c HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      );
      const answers = parseAnswers(text);
      expect(
        answers.map((a) => a.status),
        host,
      ).toEqual([200, 200, 200]);
      const seen = answers.map((a) => JSON.parse(a.body) as Seen);
      expect(seen.map((s) => `${s.method} ${s.url} ${s.bodyLength}`)).toEqual([
        'GET /echo/a 0',
        'POST /echo/b 11',
        'GET /echo/c 0',
      ]);
      expect(seen[1]?.bodySha256).toBe(sha('hello world'));
    }
  });

  it('a chunked request body reaches the origin whole; a chunked answer reaches the client chunked', async () => {
    const parts = ['first part;', 'x'.repeat(200_000), 'end'];
    const chunked = `${parts.map((p) => `${p.length.toString(16)}\r\n${p}\r\n`).join('')}0\r\n\r\n`;
    for (const host of HOSTS) {
      const text = await exchange(
        f.proxy.address,
        `POST /echo/chunked HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: chunked\r\n\r\n${chunked}` +
          `GET /stream HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      );
      const [upload, stream] = parseAnswers(text);
      const seen = JSON.parse(upload?.body ?? '{}') as Seen;
      expect(seen.bodyLength, host).toBe(parts.join('').length);
      expect(seen.bodySha256).toBe(sha(parts.join('')));
      expect(seen.headers['transfer-encoding']).toBe('chunked');
      expect(stream?.head).toMatch(/\r\ntransfer-encoding: chunked/i);
      expect(stream?.body).toBe('chunk 0\nchunk 1\nchunk 2\nchunk 3\nchunk 4\n');
    }
  });
});

describe('origin failures', () => {
  let hits = 0;
  let resetting: Server;
  let closedPort: string;

  beforeAll(async () => {
    // An origin that resets every connection as soon as a request arrives, counting them.
    resetting = createServer((socket) => {
      socket.once('data', () => {
        hits++;
        socket.resetAndDestroy();
      });
    });
    const url = await listen(resetting);
    await zoneAt('reset.example.com', url);
    // A port nothing listens on: a server opened and closed again.
    const gone = createServer();
    closedPort = await listen(gone);
    await new Promise((r) => gone.close(r));
    await zoneAt('refused.example.com', closedPort);
  });
  afterAll(() => new Promise((r) => resetting.close(r)));

  it('an origin that refuses the connection → 502, with a ray id', async () => {
    const [answer] = parseAnswers(
      await exchange(
        f.proxy.address,
        'GET / HTTP/1.1\r\nHost: refused.example.com\r\nConnection: close\r\n\r\n',
      ),
    );
    expect(answer?.status).toBe(502);
    expect(answer?.head).toMatch(/\r\ncf-ray: [0-9a-f]{16}-CRN/i);
    expect(answer?.body).toContain('could not be reached');
  });

  it('an origin that resets → 502; a failed POST is sent to the origin once, not retried', async () => {
    const before = hits;
    const [get] = parseAnswers(
      await exchange(
        f.proxy.address,
        'GET / HTTP/1.1\r\nHost: reset.example.com\r\nConnection: close\r\n\r\n',
      ),
    );
    expect(get?.status).toBe(502);
    const afterGet = hits;
    expect(afterGet - before).toBeGreaterThanOrEqual(1);
    const [post] = parseAnswers(
      await exchange(
        f.proxy.address,
        'POST /pay HTTP/1.1\r\nHost: reset.example.com\r\nContent-Length: 7\r\nConnection: close\r\n\r\namount=',
      ),
    );
    expect(post?.status).toBe(502);
    expect(hits - afterGet).toBe(1);
  });

  it('an origin that accepts and never answers → 504 after EDGE_ORIGIN_TIMEOUT_MS (1.5 s here)', async () => {
    const [answer] = parseAnswers(
      await exchange(
        f.proxy.address,
        'GET /slow HTTP/1.1\r\nHost: plain.example.com\r\nConnection: close\r\n\r\n',
      ),
    );
    expect(answer?.status).toBe(504);
  });
});

describe('a client that aborts mid-upload', () => {
  it('aborts the request to the origin (inspected or not)', async () => {
    // An origin that says when a request started and whether its body ended or was cut.
    const outcomes: Array<(outcome: string) => void> = [];
    const started: Array<() => void> = [];
    const origin = createHttpServer((req: IncomingMessage, res) => {
      started.shift()?.();
      let received = 0;
      req.on('data', (c: Buffer) => (received += c.length));
      req.on('end', () => {
        outcomes.shift()?.(`complete ${received}`);
        res.end('ok');
      });
      req.on('aborted', () => outcomes.shift()?.('aborted'));
      req.on('error', () => outcomes.shift()?.('aborted'));
    });
    const url = await listen(origin);
    await zoneAt('upload.example.com', url);
    const inspected = await zoneAt('upload-inspected.example.com', url);
    const put = await f.call(
      'PUT',
      `/zones/${inspected.id}/rulesets/phases/http_request_firewall_custom/entrypoint`,
      { rules: [{ action: 'block', expression: 'http.request.uri.path eq "/never-used"' }] },
    );
    expect(put.status, put.text).toBe(200);
    try {
      for (const host of ['upload.example.com', 'upload-inspected.example.com']) {
        const outcome = new Promise<string>((resolve) => outcomes.push(resolve));
        const reached = new Promise<void>((resolve) => started.push(resolve));
        const socket = await openSocket(f.proxy.address);
        socket.on('error', () => {});
        socket.write(`POST /upload HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 10000000\r\n\r\n`);
        // more than the inspection limit (128 KB), so the inspected zone forwards too
        socket.write(randomBytes(300_000));
        await reached;
        socket.destroy();
        expect(await outcome, host).toBe('aborted');
      }
    } finally {
      origin.closeAllConnections();
      await new Promise((r) => origin.close(r));
    }
  });
});
