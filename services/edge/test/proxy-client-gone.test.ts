import { afterAll, beforeAll, describe, it } from 'vitest';
import { createZone } from '../src/index.ts';
import { type ProxyFixture, startProxyFixture } from './proxy-fixture.ts';
import { exchange } from './raw-http.ts';

// A client that sends its request and closes its side at once: node:http ends the request (no half-open
// connections), often while the proxy is still routing it (here: a zone not cached yet, so routing waits
// for the database). Nothing may stay in flight to the origin for it — a request sent on with no one to
// read its answer waited forever for the client's socket to drain, and the proxy never finished stopping
// (found by proxy-http.property on PostgreSQL).
let f: ProxyFixture;

beforeAll(async () => {
  f = await startProxyFixture();
}, 60_000);
afterAll(() => f?.close());

function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

describe('a client gone while its request is routed', () => {
  it('leaves nothing in flight: the proxy still stops', async () => {
    for (let i = 0; i < 8; i++) {
      const name = `gone-${i}.example.com`;
      await createZone(f.edge.deps, { accountId: f.accountId, name, plan: 'pro', origin: f.origin.url });
      for (const path of ['/echo/x', '/big?bytes=4000000'])
        await exchange(f.proxy.address, `GET ${path} HTTP/1.1\r\nHost: ${name}\r\n\r\n`, undefined, true);
    }
    // stopping waits for the requests in flight to the origin: none may be stuck
    await within(15_000, 'the proxy stopping', f.edge.stopProxy());
  }, 60_000);
});
