import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badRequest } from '../src/errors.ts';
import { createTestDeps, serveOnLoopback, type TestDeps } from '../src/testing.ts';

const demo = {
  name: 'demo',
  title: 'Demo service',
  migrations: [],
  readiness: () => ({ data: { date: '2026-06-17' } }),
  plugin: async (app: FastifyInstance) => {
    app.post('/demo/echo', { schema: { tags: ['demo'] } }, async (request) => ({ got: request.query }));
    app.get('/demo/fail', async () => {
      throw new Error('database password is hunter2');
    });
    app.get('/demo/bad', async () => {
      throw badRequest('Query parameter x must be a number');
    });
  },
};

describe('the app factory', () => {
  let deps: TestDeps;
  let server: Awaited<ReturnType<typeof serveOnLoopback>>;
  beforeAll(async () => {
    deps = await createTestDeps([]);
    server = await serveOnLoopback(deps, [demo]);
  });
  afterAll(async () => {
    await server.close();
    await deps.db.close();
  });

  it('serves health, readiness and Prometheus metrics', async () => {
    expect(await (await fetch(`${server.baseUrl}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${server.baseUrl}/readyz`)).json()).toEqual({
      status: 'ready',
      demo: { data: { date: '2026-06-17' } },
    });
    await fetch(`${server.baseUrl}/demo/echo`, { method: 'POST' });
    const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/cairn_http_requests_total\{method="POST",route="\/demo\/echo",status="200"\} 1/);
  });

  it('answers 405 with Allow for a known path and another method, 404 otherwise', async () => {
    const wrong = await fetch(`${server.baseUrl}/demo/echo`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect(await wrong.json()).toEqual({ message: 'Method GET is not allowed on /demo/echo; use POST' });
    const missing = await fetch(`${server.baseUrl}/nowhere`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'No route GET /nowhere' });
  });

  it('echoes a sane request id and makes one otherwise', async () => {
    const given = await fetch(`${server.baseUrl}/healthz`, { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const made = await fetch(`${server.baseUrl}/healthz`, {
      headers: { 'x-request-id': 'bad id\twith tab' },
    });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('shows client errors and hides server errors, which are logged', async () => {
    const bad = await fetch(`${server.baseUrl}/demo/bad`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ message: 'Query parameter x must be a number' });
    const fail = await fetch(`${server.baseUrl}/demo/fail`);
    expect(fail.status).toBe(500);
    expect(await fail.json()).toEqual({ message: 'Internal server error' });
    expect(deps.logLines.some((l) => l.includes('hunter2') && l.includes('"level":50'))).toBe(true);
  });

  it('serves OpenAPI 3.1, whole and per service', async () => {
    const doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as {
      openapi: string;
      paths: object;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/demo/echo');
    const one = (await (await fetch(`${server.baseUrl}/openapi/demo.json`)).json()) as { paths: object };
    expect(Object.keys(one.paths)).toEqual(['/demo/echo']);
    expect((await fetch(`${server.baseUrl}/openapi/nope.json`)).status).toBe(404);
  });

  it('never logs secrets from the URL or the Authorization header', async () => {
    await fetch(`${server.baseUrl}/demo/echo?client_secret=cs_TOPSECRET&code=ac_CODE123&keep=visible`, {
      method: 'POST',
      headers: { authorization: 'Bearer svk_SHOULDNOTAPPEAR', cookie: 'bs=COOKIESECRET' },
    });
    const log = deps.logLines.join('');
    expect(log).toContain('keep=visible');
    for (const secret of ['cs_TOPSECRET', 'ac_CODE123', 'svk_SHOULDNOTAPPEAR', 'COOKIESECRET']) {
      expect(log).not.toContain(secret);
    }
  });
});

describe('draining before a graceful stop', () => {
  it('answers /readyz with 503 from drain() on, and still serves every other request', async () => {
    const deps = await createTestDeps([]);
    const server = await serveOnLoopback(deps, [demo]);
    try {
      expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
      await server.app.drain(0);
      const ready = await fetch(`${server.baseUrl}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({
        status: 'draining',
        message: 'this process is shutting down; send requests to another one',
      });
      expect((await fetch(`${server.baseUrl}/demo/echo`, { method: 'POST' })).status).toBe(200);
      expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
      await deps.db.close();
    }
  });
});
