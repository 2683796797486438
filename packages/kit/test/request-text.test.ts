import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeShape, errorHandler, oauthShape } from '../src/error-shapes.ts';
import { acceptFormBodies } from '../src/request-text.ts';
import { createTestDeps, serveOnLoopback, type TestDeps } from '../src/testing.ts';

// Three services, one per wire shape; each route echoes what it was given.
const places = {
  name: 'places',
  title: 'Places-like',
  migrations: [],
  plugin: async (app: FastifyInstance) => {
    app.get('/p/items/:id', async (request) => ({ params: request.params, query: request.query }));
    app.post('/p/json', async (request) => ({ body: request.body }));
    app.post('/p/text', async (request) => ({ body: request.body }));
  },
};
const oauth = {
  name: 'oauth',
  title: 'OAuth-like',
  migrations: [],
  plugin: async (app: FastifyInstance) => {
    app.setErrorHandler(errorHandler(oauthShape));
    acceptFormBodies(app);
    app.post('/o/token', async (request) => ({ body: request.body, query: request.query }));
  },
};
const edge = {
  name: 'edge',
  title: 'Edge-like',
  migrations: [],
  plugin: async (app: FastifyInstance) => {
    app.setErrorHandler(errorHandler(edgeShape));
    app.post('/e/json', async (request) => ({ body: request.body }));
  },
};

const message = async (answer: Response) => ((await answer.json()) as { message: string }).message;
const description = async (answer: Response) =>
  ((await answer.json()) as { error_description: string }).error_description;

describe('text the database cannot store, refused for every service', () => {
  let deps: TestDeps;
  let server: Awaited<ReturnType<typeof serveOnLoopback>>;
  beforeAll(async () => {
    deps = await createTestDeps([]);
    server = await serveOnLoopback(deps, [places, oauth, edge]);
  });
  afterAll(async () => {
    await server.close();
    await deps.db.close();
  });

  const get = (path: string) => fetch(`${server.baseUrl}${path}`);
  const post = (path: string, type: string, body: string | Uint8Array) =>
    fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': type }, body });

  it('passes ordinary text through unchanged', async () => {
    const answer = await get('/p/items/caf%C3%A9?query=caf%C3%A9+cr%C3%A8me&n=1&n=2');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      params: { id: 'café' },
      query: { query: 'café crème', n: ['1', '2'] },
    });
    const json = await post('/p/json', 'application/json', JSON.stringify({ name: 'Café 😀' }));
    expect(await json.json()).toEqual({ body: { name: 'Café 😀' } });
    const form = await post('/o/token', 'application/x-www-form-urlencoded', 'client_id=abc&x=a+b%2B');
    expect(await form.json()).toEqual({ body: { client_id: 'abc', x: 'a b+' }, query: {} });
  });

  it('answers 400 naming the query parameter: NUL, lone surrogate, invalid percent-encoding, bad UTF-8', async () => {
    const cases: [string, RegExp][] = [
      ['query=caf%00e', /^Query parameter query contains a NUL character \(U\+0000\) at character 4/],
      [
        'query=%ED%A0%80',
        /^Query parameter query is not valid UTF-8: byte 0xED at offset 0 after percent-decoding/,
      ],
      ['query=%ZZ', /^Query parameter query has an invalid percent-encoding "%ZZ"; write a literal % as %25/],
      ['query=caf%C3', /^Query parameter query is not valid UTF-8/],
      ['%00=1', /^Query parameter \\u0000 has a name that contains a NUL/],
    ];
    for (const [query, expected] of cases) {
      const answer = await get(`/p/items/1?ok=1&${query}`);
      expect(answer.status, query).toBe(400);
      expect(await message(answer)).toMatch(expected);
    }
  });

  it('refuses NUL in a path parameter and in a header', async () => {
    const path = await get('/p/items/a%00b');
    expect(path.status).toBe(400);
    expect(await path.json()).toEqual({
      message: 'Path parameter id contains a NUL character (U+0000) at character 2; text cannot contain it',
    });
    const header = await server.app.inject({ url: '/p/items/1', headers: { 'x-note': 'a\uD800' } });
    expect(header.statusCode).toBe(400);
    expect(header.json().message).toMatch(/^Header x-note contains an unpaired surrogate \(\\uD800\)/);
  });

  it('refuses JSON bodies with NUL or lone surrogates at any depth, and bytes that are not UTF-8', async () => {
    const nul = await post('/p/json', 'application/json', '{"a":[{"b":"x\\u0000"}]}');
    expect(nul.status).toBe(400);
    expect(await message(nul)).toMatch(/^Body field a\.0\.b contains a NUL character/);
    const surrogate = await post('/p/json', 'application/json', '{"name":"\\udc00"}');
    expect(await message(surrogate)).toMatch(/^Body field name contains an unpaired surrogate/);
    const bytes = await post(
      '/p/json',
      'application/json',
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
    );
    expect(bytes.status).toBe(400);
    expect(await bytes.json()).toEqual({ message: 'Request body is not valid UTF-8: byte 0xFF at offset 6' });
    const text = await post('/p/text', 'text/plain', Buffer.from([0x61, 0xc3]));
    expect(await message(text)).toBe('Request body is not valid UTF-8: byte 0xC3 at offset 1');
    const broken = await post('/p/json', 'application/json', '{"a":');
    expect(broken.status).toBe(400);
    // Forms only where a service accepts them.
    expect((await post('/p/json', 'application/x-www-form-urlencoded', 'a=1')).status).toBe(415);
  });

  it('refuses JSON bodies nested deeper than 64 levels, counted on the text before parsing', async () => {
    const deep = await post('/p/json', 'application/json', `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`);
    expect(deep.status).toBe(400);
    expect(await deep.json()).toEqual({
      message: 'Request body is nested deeper than 64 levels (at character 69)',
    });
    const limit = `${'['.repeat(64)}${']'.repeat(64)}`;
    const atLimit = await post('/p/json', 'application/json', limit);
    expect(atLimit.status).toBe(200);
    expect(await atLimit.json()).toEqual({ body: JSON.parse(limit) });
    // Brackets inside strings are text.
    const inString = await post('/p/json', 'application/json', JSON.stringify({ a: '['.repeat(500) }));
    expect(inString.status).toBe(200);
  });

  it('renders the refusal in the route service’s own shape: OAuth RFC 6749 §5.2', async () => {
    const form = await post('/o/token', 'application/x-www-form-urlencoded', 'grant_type=x&client_id=a%00');
    expect(form.status).toBe(400);
    expect(await form.json()).toEqual({
      error: 'bad_request',
      error_description:
        'Form field client_id contains a NUL character (U+0000) at character 2; text cannot contain it',
    });
    const percent = await post('/o/token', 'application/x-www-form-urlencoded', 'client_id=%E2%82');
    expect(await description(percent)).toMatch(/^Form field client_id is not valid UTF-8/);
    const raw = await post('/o/token', 'application/x-www-form-urlencoded', Buffer.from([0x61, 0x3d, 0xff]));
    expect(await description(raw)).toMatch(/^Form field a is not valid UTF-8: byte 0xFF/);
    const query = await fetch(`${server.baseUrl}/o/token?client_id=%00`, { method: 'POST' });
    expect(await description(query)).toMatch(/^Query parameter client_id contains a NUL/);
  });

  it('renders the refusal in the edge API envelope, with a JSON pointer', async () => {
    const answer = await post('/e/json', 'application/json', '{"rules":[{"expression":"\\u0000"}]}');
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      result: null,
      success: false,
      errors: [
        {
          code: 10400,
          message:
            'Body field rules.0.expression contains a NUL character (U+0000) at character 1; text cannot contain it',
          source: { pointer: '/rules/0/expression' },
        },
      ],
      messages: [],
    });
  });
});
