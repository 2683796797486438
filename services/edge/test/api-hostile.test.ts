import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Zone } from '../src/index.ts';
import { type Answer, call } from './helpers.ts';
import { type ProxyFixture, startProxyFixture } from './proxy-fixture.ts';

// Hostile input on the edge API and the proxy: never a 500, never an answer outside the envelope
// (issue 15, item 5).
let f: ProxyFixture;
let zone: Zone;
let notUpgraded: Zone;
beforeAll(async () => {
  f = await startProxyFixture();
  zone = await f.zone('hostile.example.com', 'enterprise', 'complete');
  notUpgraded = await f.zone('hostile-start.example.com', 'enterprise');
}, 60_000);
afterAll(() => f?.close());

const NUL = 'a\u0000b';

function refused(a: Answer, status: number, where: { pointer?: string; parameter?: string }, text?: RegExp) {
  expect(a.status, a.text).toBe(status);
  expect(a.body).toMatchObject({ result: null, success: false, messages: [] });
  expect(a.body.errors).toHaveLength(1);
  expect(a.body.errors[0]!.code).toBeTypeOf('number');
  if (where.pointer !== undefined || where.parameter !== undefined)
    expect(a.body.errors[0]!.source).toEqual(where);
  if (text) expect(a.body.errors[0]!.message).toMatch(text);
}

/** Bytes on a raw connection; the whole answer as text once the server closes or answered. */
function raw(port: number, request: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d) => {
      text += d.toString('latin1');
    });
    socket.on('error', (e) => (text === '' ? reject(e) : resolve(text)));
    socket.on('close', () => resolve(text));
    socket.setTimeout(5000, () => socket.destroy());
    socket.write(request);
  });
}

const portOf = (url: string) => Number(new URL(url).port);
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Answer['body'];

describe('NUL in any string of the edge API: 400 in the envelope with a pointer', () => {
  const block = (response?: Record<string, unknown>) => ({
    action: 'block',
    expression: 'http.request.uri.path eq "/x"',
    ...(response ? { action_parameters: { response } } : {}),
  });
  const cases: [string, string, (z: string) => string, unknown, string][] = [
    [
      'ruleset description',
      'POST',
      (z) => `/zones/${z}/rulesets`,
      { name: 'r', kind: 'zone', phase: 'http_ratelimit', description: NUL, rules: [] },
      '/description',
    ],
    [
      'rule description',
      'PUT',
      (z) => `/zones/${z}/rulesets/phases/http_request_firewall_custom/entrypoint`,
      { rules: [{ ...block(), description: NUL }] },
      '/rules/0/description',
    ],
    [
      'rule ref',
      'PUT',
      (z) => `/zones/${z}/rulesets/phases/http_request_firewall_custom/entrypoint`,
      { rules: [{ ...block(), ref: NUL }] },
      '/rules/0/ref',
    ],
    [
      'rule expression',
      'PUT',
      (z) => `/zones/${z}/rulesets/phases/http_request_firewall_custom/entrypoint`,
      { rules: [{ ...block(), expression: `http.host eq "${NUL}"` }] },
      '/rules/0/expression',
    ],
    [
      'block response content',
      'PUT',
      (z) => `/zones/${z}/rulesets/phases/http_request_firewall_custom/entrypoint`,
      { rules: [block({ status_code: 403, content: NUL, content_type: 'text/plain' })] },
      '/rules/0/action_parameters/response/content',
    ],
    [
      'migration PUT with dry_run',
      'PUT',
      (z) =>
        `/zones/${z}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=pending&phase_two=1&dry_run=true`,
      { rules: [{ ...block({ status_code: 403, content: NUL, content_type: 'text/plain' }) }] },
      '/rules/0/action_parameters/response/content',
    ],
    [
      'firewall-rule description',
      'POST',
      (z) => `/zones/${z}/firewall/rules`,
      [{ filter: { expression: 'ip.src eq 192.0.2.1' }, action: 'block', description: NUL }],
      '/0/description',
    ],
    [
      'filter expression',
      'POST',
      (z) => `/zones/${z}/filters`,
      [{ expression: `http.host eq "${NUL}"` }],
      '/0/expression',
    ],
    [
      'page-rule URL',
      'POST',
      (z) => `/zones/${z}/pagerules`,
      {
        targets: [{ target: 'url', constraint: { operator: 'matches', value: `example.com/${NUL}` } }],
        actions: [{ id: 'disable_security' }],
      },
      '/targets/0/constraint/value',
    ],
    [
      'override URL',
      'POST',
      (z) => `/zones/${z}/firewall/waf/overrides`,
      { urls: [`example.com/${NUL}`], rules: { '100001': 'disable' } },
      '/urls/0',
    ],
    [
      'override description',
      'POST',
      (z) => `/zones/${z}/firewall/waf/overrides`,
      { urls: ['example.com/*'], rules: { '100001': 'disable' }, description: NUL },
      '/description',
    ],
  ];
  it.each(cases)('%s', async (name, method, path, body, pointer) => {
    const target = name.startsWith('migration') ? notUpgraded : zone;
    refused(await f.call(method, path(target.id), body), 400, { pointer }, /NUL/);
  });
});

describe('other inputs that gave 500', () => {
  it('a NUL in a security events filter (host, rule_id): 400 on the parameter', async () => {
    for (const name of ['host', 'rule_id', 'ray_id', 'ip']) {
      refused(await f.call('GET', `/zones/${zone.id}/security/events?${name}=a%00b`), 400, {
        parameter: name,
      });
    }
  });

  it('a NUL in the email of the dashboard sign-in: 400, not 500', async () => {
    const base = f.api.replace(/\/client\/v4$/, '');
    const answer = await fetch(`${base}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `ada${NUL}@example.com`, password: 'x'.repeat(12) }),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      success: false,
      errors: [{ source: { pointer: '/email' } }],
    });
  });

  it('JSON nested 5,000 deep at the dashboard sign-in: 400, not 500', async () => {
    const base = f.api.replace(/\/client\/v4$/, '');
    const answer = await fetch(`${base}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"email":${'['.repeat(5000)}${']'.repeat(5000)},"password":"x"}`,
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ success: false });
  });

  it('JSON nested 5,000 deep: 400 naming the depth limit, before parsing', async () => {
    const deep = `{"rules":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const path = `/zones/${zone.id}/rulesets/phases/http_request_firewall_custom/entrypoint`;
    refused(await call(f, 'PUT', path, { raw: deep }), 400, {}, /nested deeper than 64/);
    const objects = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    refused(
      await call(f, 'POST', `/zones/${zone.id}/firewall/rules`, { raw: objects }),
      400,
      {},
      /nested deeper than 64/,
    );
    // Brackets inside strings are text, not nesting.
    const inString = JSON.stringify({
      rules: [{ action: 'block', expression: 'http.host eq "x"', description: '['.repeat(400) }],
    });
    expect((await call(f, 'PUT', path, { raw: inString })).status).toBe(200);
  });

  it('a body that is not UTF-8: 400 in the envelope', async () => {
    const body = Buffer.concat([
      Buffer.from('[{"expression": "http.host eq \\"'),
      Buffer.from([0xc0, 0xaf]),
      Buffer.from('\\""}]'),
    ]);
    const answer = await fetch(`${f.api}/zones/${zone.id}/filters`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.token}`, 'content-type': 'application/json' },
      body,
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      success: false,
      errors: [{ code: 10400, message: expect.stringMatching(/not valid UTF-8/) }],
    });
  });
});

describe('answers inside the envelope', () => {
  it('a path segment that is not percent-encoded UTF-8 (/rulesets/%C0%AF): 400 envelope', async () => {
    const a = await f.call('GET', `/zones/${zone.id}/rulesets/%C0%AF`);
    refused(a, 400, {}, /not valid/);
  });

  it('a 60 KB Authorization header: 431 in the envelope', async () => {
    const port = portOf(f.api);
    const answer = await raw(
      port,
      `GET /client/v4/zones HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${'x'.repeat(60_000)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toMatch(/content-type: application\/json/i);
    expect(bodyOf(answer)).toMatchObject({
      result: null,
      success: false,
      errors: [{ code: 10431 }],
      messages: [],
    });
  });

  it('a header value with a NUL byte: 400 in the envelope (node refuses it before any route)', async () => {
    const answer = await raw(
      portOf(f.api),
      `GET /client/v4/zones HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer a\u0000b\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(answer)).toMatchObject({ result: null, success: false, errors: [{ code: 10400 }] });
  });

  it('outside /client/v4 the server answers as before', async () => {
    const answer = await raw(
      portOf(f.api),
      `GET /places/v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${'x'.repeat(60_000)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(answer)).not.toHaveProperty('success');
  });
});

describe('the proxy', () => {
  it('two Host headers: 400, and nothing reaches the origin', async () => {
    const seen = f.origin.seen.length;
    const answer = await raw(
      portOf(f.proxy.address),
      'GET / HTTP/1.1\r\nHost: hostile.example.com\r\nHost: other.example.com\r\nConnection: close\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(f.origin.seen.length).toBe(seen);
  });
});
