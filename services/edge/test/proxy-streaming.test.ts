import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Seen } from './proxy-fixture.ts';
import {
  EDGE_RULESET,
  OWASP_RULESET,
  type ProxyFixture,
  paranoia,
  startProxyFixture,
} from './proxy-fixture.ts';

// Streaming stays flat (issue 16, point 4): 50 MB up and 50 MB down through the proxy with the WAF on
// (both managed rulesets, the OWASP CRS at PL1, which inspects the first EDGE_WAF_BODY_LIMIT bytes of
// the upload). The client, the proxy and the origin share this process, none of them holds a body, so
// the process's resident memory must stay within 64 MB of where it started; the bytes arrive intact.
let f: ProxyFixture;
const SIZE = 50 * 1024 * 1024;
const CHUNK = 1024 * 1024;
const MB = 1024 * 1024;

beforeAll(async () => {
  f = await startProxyFixture({ EDGE_ORIGIN_TIMEOUT_MS: '30000' });
  const zone = await f.zone('stream.example.com', 'enterprise', 'complete');
  await f.changed(zone.id, async () => {
    const res = await f.call(
      'PUT',
      `/zones/${zone.id}/rulesets/phases/http_request_firewall_managed/entrypoint`,
      {
        rules: [
          { action: 'execute', expression: 'true', action_parameters: { id: EDGE_RULESET } },
          {
            action: 'execute',
            expression: 'true',
            action_parameters: { id: OWASP_RULESET, overrides: { categories: paranoia(1) } },
          },
        ],
      },
    );
    expect(res.status, res.text).toBe(200);
  });
  // warm the path (CRS engine, pools) so its one-off allocations are in the baseline
  expect((await f.send('stream.example.com', '/echo/warm', { method: 'POST', body: 'a=1' })).status).toBe(
    200,
  );
}, 120_000);
afterAll(() => f?.close());

/** The highest RSS seen while `work` runs, sampled every 20 ms. */
async function peakRss<T>(work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  try {
    const result = await work();
    return { result, peak: Math.max(peak, process.memoryUsage.rss()) };
  } finally {
    clearInterval(timer);
  }
}

describe('50 MB each way through the WAF', () => {
  it('upload: intact at the origin, RSS growth under 64 MB', async () => {
    const base = randomBytes(CHUNK);
    const sent = createHash('sha256');
    // 50 distinct 1 MB chunks (the index stamped in), generated as the proxy asks for them
    async function* body() {
      for (let i = 0; i < SIZE / CHUNK; i++) {
        const chunk = Buffer.from(base);
        chunk.writeUInt32BE(i, 0);
        sent.update(chunk);
        yield chunk;
      }
    }
    global.gc?.();
    const before = process.memoryUsage.rss();
    const { result, peak } = await peakRss(async () => {
      const res = await request(`${f.proxy.address}/echo/upload`, {
        method: 'POST',
        headers: { host: 'stream.example.com', 'content-type': 'application/octet-stream' },
        body: Readable.from(body()),
      });
      return { status: res.statusCode, seen: (await res.body.json()) as Seen };
    });
    expect(result.status).toBe(200);
    expect(result.seen.bodyLength).toBe(SIZE);
    expect(result.seen.bodySha256).toBe(sent.digest('hex'));
    expect((peak - before) / MB).toBeLessThan(64);
  }, 120_000);

  it('download: intact at the client, RSS growth under 64 MB', async () => {
    // the origin's /big answer: 64 KB blocks of 'x'
    const expected = createHash('sha256');
    const block = Buffer.alloc(65_536, 'x');
    for (let left = SIZE; left > 0; left -= block.length)
      expected.update(block.subarray(0, Math.min(left, block.length)));
    global.gc?.();
    const before = process.memoryUsage.rss();
    const { result, peak } = await peakRss(async () => {
      const res = await request(`${f.proxy.address}/big?bytes=${SIZE}`, {
        headers: { host: 'stream.example.com' },
      });
      const got = createHash('sha256');
      let length = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        got.update(chunk);
        length += chunk.length;
      }
      return { status: res.statusCode, length, sha: got.digest('hex') };
    });
    expect(result.status).toBe(200);
    expect(result.length).toBe(SIZE);
    expect(result.sha).toBe(expected.digest('hex'));
    expect((peak - before) / MB).toBeLessThan(64);
  }, 120_000);
});
