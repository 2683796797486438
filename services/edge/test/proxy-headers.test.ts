import { describe, expect, it } from 'vitest';
import { clientResponseRawHeaders, hostFieldCount, originRequestHeaders } from '../src/proxy/headers.ts';

// The header rewriting of the proxy's hot path, field by field (the proxy tests check it end to end).
const INFO = {
  clientIp: '198.51.100.7',
  proto: 'http' as const,
  host: 'shop.example.com',
  rayId: 'abcdef0123456789',
};
const raw = (pairs: string[]) => pairs.map((p) => Buffer.from(p, 'latin1'));

describe('originRequestHeaders', () => {
  it('keeps order and case, drops hop-by-hop fields and those Connection names (before or after it)', () => {
    const out = originRequestHeaders(
      [
        'Host',
        'shop.example.com',
        'X-Before',
        '1',
        'Connection',
        'keep-alive, X-Before',
        'TE',
        'trailers',
        'Accept',
        'text/html',
        'connection',
        'x-after',
        'X-After',
        '2',
        'Transfer-Encoding',
        'chunked',
      ],
      INFO,
    );
    expect(out.slice(0, 4)).toEqual(['Host', 'shop.example.com', 'Accept', 'text/html']);
    expect(out.slice(4)).toEqual([
      'x-forwarded-for',
      '198.51.100.7',
      'x-forwarded-proto',
      'http',
      'x-forwarded-host',
      'shop.example.com',
      'cf-connecting-ip',
      '198.51.100.7',
      'cf-ray',
      'abcdef0123456789',
    ]);
  });

  it("appends the client to every X-Forwarded-For line, and replaces the client's own CF-* fields", () => {
    const out = originRequestHeaders(
      [
        'X-Forwarded-For',
        '192.0.2.1',
        'CF-Ray',
        'forged',
        'x-forwarded-for',
        '192.0.2.2',
        'CF-Connecting-IP',
        '1.1.1.1',
      ],
      INFO,
    );
    expect(out).toEqual([
      'x-forwarded-for',
      '192.0.2.1, 192.0.2.2, 198.51.100.7',
      'x-forwarded-proto',
      'http',
      'x-forwarded-host',
      'shop.example.com',
      'cf-connecting-ip',
      '198.51.100.7',
      'cf-ray',
      'abcdef0123456789',
    ]);
  });

  it('an X-Forwarded-For the client lists in Connection is not forwarded', () => {
    const out = originRequestHeaders(['X-Forwarded-For', '192.0.2.1', 'Connection', 'x-forwarded-for'], INFO);
    expect(out[1]).toBe('198.51.100.7');
  });
});

describe('clientResponseRawHeaders', () => {
  it("keeps the origin's fields as sent (case, order, repeats), drops hop-by-hop ones and its CF-Ray", () => {
    const out = clientResponseRawHeaders(
      raw([
        'Content-Type',
        'text/html',
        'Set-Cookie',
        'a=1',
        'X-Hop',
        'h',
        'Set-Cookie',
        'b=2',
        'Keep-Alive',
        'timeout=5',
        'CF-Ray',
        'origin-ray',
        'Connection',
        'keep-alive, x-hop',
        'Content-Length',
        '3',
      ]),
    );
    expect(out).toEqual([
      'Content-Type',
      'text/html',
      'Set-Cookie',
      'a=1',
      'Set-Cookie',
      'b=2',
      'Content-Length',
      '3',
    ]);
  });

  it('relays bytes outside ASCII unchanged (latin1 both ways)', () => {
    const value = Buffer.from('attachment; filename="café.txt"', 'utf8');
    const out = clientResponseRawHeaders([Buffer.from('Content-Disposition'), value]);
    expect(Buffer.from(out[1] as string, 'latin1').equals(value)).toBe(true);
  });
});

describe('hostFieldCount', () => {
  it('counts Host lines in any case', () => {
    expect(hostFieldCount(['Host', 'a', 'HOST', 'b', 'Hosts', 'c', 'X-Host', 'd'])).toBe(2);
  });
});
