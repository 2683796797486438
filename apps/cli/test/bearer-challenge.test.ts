import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EditorStack, startEditorStack } from './editor-stack.ts';

/** Issue 14: a 401 of a bearer-protected API carries its RFC 6750 §3 challenge. */
let stack: EditorStack;
beforeAll(async () => {
  stack = await startEditorStack(5);
}, 120_000);
afterAll(async () => {
  await stack.close();
});

const APIS = [
  ['GET', '/places/search?query=cafe', { 'x-places-api-version': '2025-06-17' }],
  ['POST', '/users/managed-user/create', { 'x-users-api-version': '2025-06-17', accept: 'application/json' }],
  ['POST', '/auth/session-token', { 'x-users-api-version': '2025-06-17', accept: 'application/json' }],
] as const;

describe('WWW-Authenticate on 401s of the places and users APIs', () => {
  it.each(APIS)('%s %s', async (method, path, headers) => {
    const call = (authorization?: string) =>
      fetch(`${stack.baseUrl}${path}`, {
        method,
        headers: { ...headers, ...(authorization === undefined ? {} : { authorization }) },
      });
    const missing = await call();
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="cairn"');
    const malformed = await call('Bearer a b');
    expect(malformed.status).toBe(401);
    expect(malformed.headers.get('www-authenticate')).toBe('Bearer realm="cairn", error="invalid_request"');
    // Twice each: the second answer of an unknown key comes from the resolver's cache.
    for (const token of [`svk_${'A'.repeat(43)}`, `svk_${'A'.repeat(43)}`, 'nonsense', 'nonsense']) {
      const invalid = await call(`Bearer ${token}`);
      expect(invalid.status).toBe(401);
      expect(invalid.headers.get('www-authenticate')).toBe('Bearer realm="cairn", error="invalid_token"');
    }
    expect((await call(`Bearer ${stack.serviceKey}`)).headers.get('www-authenticate')).toBeNull();
  });
});
