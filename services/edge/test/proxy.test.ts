import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Zone } from '../src/index.ts';
import { type ProxyFixture, type Seen, startProxyFixture } from './proxy-fixture.ts';

let f: ProxyFixture;
let plain: Zone;
let guarded: Zone;

beforeAll(async () => {
  f = await startProxyFixture();
  plain = await f.zone('plain.example.com', 'pro');
  // A zone whose requests are inspected (a custom rule that never matches real traffic), so bodies go
  // through the buffering path.
  guarded = await f.zone('guarded.example.com', 'pro');
  const put = await f.call(
    'PUT',
    `/zones/${guarded.id}/rulesets/phases/http_request_firewall_custom/entrypoint`,
    {
      rules: [{ action: 'block', expression: 'http.request.uri.path eq "/never-used"' }],
    },
  );
  expect(put.status, put.text).toBe(200);
}, 60_000);

afterAll(() => f?.close());

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('the edge proxy passes benign traffic through unchanged', () => {
  it('forwards method, path, query and headers; adds X-Forwarded-*; drops hop-by-hop fields', async () => {
    // node:http, since undici will not send a Connection header listing other fields
    const res = await new Promise<{
      status: number;
      headers: Record<string, string | string[] | undefined>;
      text: string;
    }>((resolve, reject) => {
      const req = httpRequest(`${f.proxy.address}/echo/a%20b?x=1&y=%2F`, {
        headers: {
          host: 'plain.example.com:8081',
          'x-custom': 'kept',
          'x-forwarded-for': '192.0.2.1',
          connection: 'keep-alive, x-secret',
          'x-secret': 'hop',
        },
      });
      req.on('response', (r) => {
        let text = '';
        r.on('data', (c: Buffer) => (text += c.toString()));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, headers: r.headers, text }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(res.status).toBe(200);
    const seen = JSON.parse(res.text) as Seen;
    expect(seen.method).toBe('GET');
    expect(seen.url).toBe('/echo/a%20b?x=1&y=%2F');
    expect(seen.headers.host).toBe('plain.example.com:8081');
    expect(seen.headers['x-custom']).toBe('kept');
    expect(seen.headers['x-secret']).toBeUndefined();
    expect(seen.headers['x-forwarded-for']).toBe('192.0.2.1, 127.0.0.1');
    expect(seen.headers['x-forwarded-proto']).toBe('http');
    expect(seen.headers['x-forwarded-host']).toBe('plain.example.com');
    expect(seen.headers['cf-connecting-ip']).toBe('127.0.0.1');
    // the answer: status, repeated headers, no hop-by-hop, a ray id
    expect(res.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(res.headers['x-origin']).toBe('yes');
    expect(res.headers['x-hop']).toBeUndefined();
    expect(res.headers['cf-ray']).toMatch(/^[0-9a-f]{16}-CRN$/);
    expect(seen.headers['cf-ray']).toBe(String(res.headers['cf-ray']).slice(0, 16));
  });

  it('keeps the origin status and serves subdomains from their zone', async () => {
    const res = await f.send('www.plain.example.com', '/status/404');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text).headers.host).toBe('www.plain.example.com');
    const head = await f.send('plain.example.com', '/status/201', { method: 'HEAD' });
    expect(head.status).toBe(201);
    expect(head.text).toBe('');
  });

  it('streams responses chunk by chunk and large bodies both ways', async () => {
    const stream = await f.send('guarded.example.com', '/stream');
    expect(stream.text).toBe('chunk 0\nchunk 1\nchunk 2\nchunk 3\nchunk 4\n');
    const big = await f.send('guarded.example.com', '/big?bytes=20000000');
    expect(big.text.length).toBe(20_000_000);
    for (const zone of ['plain.example.com', 'guarded.example.com']) {
      const body = randomBytes(5 * 1024 * 1024 + 17);
      const res = await f.send(zone, '/echo/upload', {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(res.status, zone).toBe(200);
      const seen = JSON.parse(res.text) as Seen;
      expect(seen.bodyLength).toBe(body.length);
      expect(seen.bodySha256).toBe(sha(body));
      expect(seen.headers['content-length']).toBe(String(body.length));
    }
  });

  it('streams a chunked request body of unknown length behind the inspected head', async () => {
    const parts = [randomBytes(100_000), randomBytes(200_000), randomBytes(3)];
    const res = await request(`${f.proxy.address}/echo/chunked`, {
      method: 'PUT',
      headers: { host: 'guarded.example.com' },
      body: Readable.from(
        (async function* () {
          for (const p of parts) yield p;
        })(),
      ),
    });
    const seen = (await res.body.json()) as Seen;
    expect(seen.bodyLength).toBe(300_003);
    expect(seen.bodySha256).toBe(sha(Buffer.concat(parts)));
    expect(seen.headers['transfer-encoding']).toBe('chunked');
  });
});

describe('what the edge answers itself', () => {
  it('404 for a host no zone serves, 400 without a Host', async () => {
    const res = await f.send('nowhere.example.net', '/');
    expect(res.status).toBe(404);
    expect(res.text).toContain('No zone on this edge serves nowhere.example.net');
  });

  it('502 when the zone has no origin, or the origin is down; 504 when it does not answer in time', async () => {
    const bare = await f.call('POST', '/zones', { name: 'bare.example.com', account: { id: f.accountId } });
    expect(bare.status, bare.text).toBe(200);
    expect((await f.send('bare.example.com', '/')).status).toBe(502);

    const down = await f.zone('down.example.com', 'pro');
    await f.changed(down.id, () => f.call('PATCH', `/zones/${down.id}`, { origin: 'http://127.0.0.1:9' }));
    const res = await f.send('down.example.com', '/');
    expect(res.status).toBe(502);
    expect(res.text).toContain('could not be reached');
    expect(res.headers['cf-ray']).toMatch(/-CRN$/);

    const slow = await f.send('plain.example.com', '/slow');
    expect(slow.status).toBe(504);
  });

  it('the origin is set and checked through the API', async () => {
    const bad = await f.call('PATCH', `/zones/${plain.id}`, { origin: 'ftp://x' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]?.source?.pointer).toBe('/origin');
    const withPath = await f.call('PATCH', `/zones/${plain.id}`, { origin: 'http://127.0.0.1:1/app' });
    expect(withPath.status).toBe(400);
    const read = await f.call('GET', `/zones/${plain.id}`);
    expect((read.body.result as { origin: string }).origin).toBe(f.origin.url);
  });
});
