import { describe, expect, it } from 'vitest';
import { compile } from '../compiler.ts';
import { parse } from '../parse.ts';
import { httpRequestFields, httpRequestScheme } from './fields.ts';
import { createRequestContext, type HttpRequestInput } from './request-context.ts';

const scheme = httpRequestScheme({ extraFields: { 'cairn.custom': 'Bytes' } });

const request: HttpRequestInput = {
  method: 'POST',
  url: '/api/v1/login?user=bob&redirect=%2Fhome&user=alice#frag',
  headers: [
    ['Host', 'www.example.com'],
    ['User-Agent', 'curl/8.0'],
    ['Cookie', 'session=abc; theme=dark'],
    ['X-Forwarded-For', '203.0.113.9'],
    ['Content-Type', 'application/x-www-form-urlencoded; charset=utf-8'],
    ['Accept-Language', 'fr;q=0.5, en-US, de;q=0.8'],
    ['X-Multi', 'a'],
    ['x-multi', 'b'],
  ],
  ip: '198.51.100.7',
  body: 'name=J%C3%A9r%C3%B4me&age=42',
  httpVersion: '1.1',
  ssl: true,
  timestamp: 1_700_000_000_123,
  geo: { country: 'FR', asnum: 13335 },
  scores: { waf: 12, sqli: 80 },
  fields: { 'cairn.custom': () => 'yes' },
};

function get(name: string, input: HttpRequestInput = request): unknown {
  return createRequestContext(scheme, input).get(name);
}

describe('createRequestContext', () => {
  it('derives URI fields without decoding', () => {
    expect(get('http.request.uri.path')).toBe('/api/v1/login');
    expect(get('http.request.uri.query')).toBe('user=bob&redirect=%2Fhome&user=alice');
    expect(get('http.request.uri')).toBe('/api/v1/login?user=bob&redirect=%2Fhome&user=alice');
    expect(get('http.request.full_uri')).toBe(
      'https://www.example.com/api/v1/login?user=bob&redirect=%2Fhome&user=alice',
    );
    expect(get('http.request.uri.args')).toEqual(
      new Map([
        ['user', ['bob', 'alice']],
        ['redirect', ['%2Fhome']],
      ]),
    );
    expect(get('http.request.uri.args.names')).toEqual(['user', 'redirect', 'user']);
    expect(get('raw.http.request.uri.path')).toBe('/api/v1/login');
    expect(get('http.request.uri.path.extension', { ...request, url: '/a/B.PHP?x' })).toBe('php');
    expect(
      get('http.request.full_uri', {
        ...request,
        url: 'http://h.example:8080/x',
        headers: [],
        ssl: undefined,
      }),
    ).toBe('http://h.example:8080/x');
  });

  it('derives header fields', () => {
    expect(get('http.host')).toBe('www.example.com');
    expect(get('http.user_agent')).toBe('curl/8.0');
    expect((get('http.request.headers') as Map<string, string[]>).get('x-multi')).toEqual(['a', 'b']);
    expect(get('http.request.headers.names')).toContain('X-Multi');
    expect(get('http.cookie')).toBe('session=abc; theme=dark');
    expect(get('http.request.cookies')).toEqual(
      new Map([
        ['session', ['abc']],
        ['theme', ['dark']],
      ]),
    );
    expect(get('http.x_forwarded_for')).toBe('203.0.113.9');
    expect(get('http.request.accepted_languages')).toEqual(['en-US', 'de', 'fr']);
    expect(get('http.referer')).toBeUndefined();
    expect(
      get('http.user_agent', { ...request, headers: { 'user-agent': 'node', cookie: ['a=1', 'b=2'] } }),
    ).toBe('node');
    expect(get('http.cookie', { ...request, headers: { cookie: ['a=1', 'b=2'] } })).toBe('a=1; b=2');
    expect(get('http.host', { ...request, headers: ['Host', 'raw.example'] })).toBe('raw.example');
  });

  it('derives body, connection, geo and score fields', () => {
    expect(get('http.request.body.raw')).toBe('name=J%C3%A9r%C3%B4me&age=42');
    expect(get('http.request.body.size')).toBe(28);
    expect(get('http.request.body.mime')).toBe('application/x-www-form-urlencoded');
    expect(get('http.request.body.form')).toEqual(
      new Map([
        ['name', ['J\xc3\xa9r\xc3\xb4me']],
        ['age', ['42']],
      ]),
    );
    expect(get('http.request.version')).toBe('HTTP/1.1');
    expect(get('ssl')).toBe(true);
    expect(String(get('ip.src'))).toBe('198.51.100.7');
    expect(get('http.request.timestamp.sec')).toBe(1_700_000_000);
    expect(get('http.request.timestamp.msec')).toBe(123);
    expect(get('ip.src.country')).toBe('FR');
    expect(get('ip.geoip.country')).toBe('FR');
    expect(get('ip.geoip.asnum')).toBe(13335);
    expect(get('cf.waf.score')).toBe(12);
    expect(get('cf.threat_score')).toBeUndefined();
    expect(get('cairn.custom')).toBe('yes');
  });

  it('evaluates a WAF expression against a request', () => {
    const filter = compile(
      parse(
        'http.request.method eq "POST" and starts_with(http.request.uri.path, "/api/") and ' +
          'any(http.request.uri.args["user"][*] in {"alice" "carol"}) and ip.src in {198.51.100.0/24} and ' +
          'cf.waf.score.sqli gt 50 and not ip.geoip.country in {"US"}',
        scheme,
      ),
    );
    expect(filter.execute(createRequestContext(scheme, request))).toBe(true);
    expect(filter.execute(createRequestContext(scheme, { ...request, method: 'GET' }))).toBe(false);
  });

  it('computes each field at most once per request, by slot', () => {
    let customReads = 0;
    let headerReads = 0;
    const headers = [
      ['Host', 'a.example'],
      ['HOST', 'b.example'],
      ['cookie', 'a=1'],
      ['Cookie', 'b=2'],
    ] as const;
    const input: HttpRequestInput = {
      method: 'GET',
      url: '/',
      get headers() {
        headerReads++;
        return headers;
      },
      fields: { 'cairn.custom': () => `n${++customReads}` },
    };
    const ctx = createRequestContext(scheme, input);
    const filter = compile(
      parse(
        'cairn.custom eq "n1" and http.host eq "a.example" and http.cookie eq "a=1; b=2" and ' +
          'cairn.custom ne "n2" and http.request.headers["host"][1] eq "b.example"',
        scheme,
      ),
    );
    expect(filter.execute(ctx)).toBe(true);
    expect(filter.execute(ctx)).toBe(true);
    expect(customReads).toBe(1);
    expect(headerReads).toBe(1);
    // A scheme that grew after its first context still resolves the new field.
    const grown = httpRequestScheme();
    expect(createRequestContext(grown, request).get('http.host')).toBe('www.example.com');
    grown.addField('cairn.late', 'Bytes');
    const late = createRequestContext(grown, { ...request, fields: { 'cairn.late': 'x' } });
    expect(late.get('cairn.late')).toBe('x');
    expect(late.get('http.request.method')).toBe('POST');
  });

  it('knows every standard field it declares', () => {
    const full = createRequestContext(scheme, {
      ...request,
      headers: [...(request.headers as [string, string][]), ['Referer', 'https://ref.example/']],
      port: 443,
      bot: { verified: false, staticResource: false },
      zone: { name: 'example.com', plan: 'ENT' },
      edge: { ip: '192.0.2.1', port: 443 },
      rayId: 'abc',
      randomSeed: 'seed',
      headersTruncated: false,
      bodyTruncated: false,
      geo: {
        country: 'FR',
        continent: 'EU',
        asnum: 1,
        city: 'Paris',
        region: 'IDF',
        regionCode: '11',
        subdivision1: '11',
        subdivision2: '75',
        postalCode: '75001',
        metroCode: '0',
        lat: '48.8',
        lon: '2.3',
        timezone: 'Europe/Paris',
        isInEuropeanUnion: true,
      },
      scores: { waf: 1, sqli: 1, xss: 1, rce: 1, wafClass: 'attack', threat: 1, bot: 1 },
    });
    const missing = Object.keys(httpRequestFields).filter((name) => full.get(name) === undefined);
    expect(missing).toEqual([]);
  });
});
