// Property-based: whatever arrives (random methods, URIs, header bytes, bodies of every content
// type, broken encodings), evaluate() returns a well-formed result and never throws.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCrsSync, type Waf, type WafRequest } from '../src/index.ts';

let waf: Waf;

beforeAll(() => {
  waf = loadCrsSync({ paranoiaLevel: 4, timeBudgetMs: 1000 });
});

const bytes = fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a).toString('latin1'));
const text = fc.oneof(
  fc.string({ maxLength: 80 }),
  bytes,
  fc.constantFrom('%', '%u', '%zz', '&#', '\\u00', '<!--', "'", '"', '/*'),
);
const contentType = fc.constantFrom(
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=XyZ',
  'multipart/form-data',
  'application/json',
  'text/xml',
  'text/plain',
  'application/octet-stream',
);

const request: fc.Arbitrary<WafRequest> = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PROPFIND', 'G\u00e9T'),
  uri: fc.tuple(text, text, text).map(([p, k, v]) => `/${p}?${k}=${v}&${v}`),
  httpVersion: fc.constantFrom('1.0', '1.1', '2', 'HTTP/1.1', 'JUNK'),
  headers: fc.array(
    fc.tuple(fc.constantFrom('Host', 'Cookie', 'User-Agent', 'Accept', 'Content-Type', 'Range', 'X-A'), text),
    {
      maxLength: 8,
    },
  ),
  remoteAddr: fc.constantFrom('127.0.0.1', '::1', '203.0.113.9', 'not-an-ip'),
});

const withBody: fc.Arbitrary<WafRequest> = fc
  .tuple(
    request,
    contentType,
    fc.oneof(
      text,
      fc.json(),
      fc.constant('--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--XyZ--'),
    ),
  )
  .map(([r, type, body]) => ({
    ...r,
    method: 'POST',
    headers: [...r.headers, ['Content-Type', type] as [string, string]],
    body: Buffer.from(body, 'latin1'),
  }));

describe('evaluate on random requests', () => {
  it('never throws and always returns a decision', () => {
    fc.assert(
      fc.property(fc.oneof(request, withBody), (req) => {
        const result = waf.evaluate(req);
        expect(['allow', 'block', 'drop', 'redirect']).toContain(result.decision);
        expect(Number.isFinite(result.anomalyScore)).toBe(true);
        for (const m of result.matchedRules) expect(typeof m.id).toBe('number');
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});
