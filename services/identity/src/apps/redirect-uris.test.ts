import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRedirectUri, redirectUriMatches } from './redirect-uris.ts';

describe('redirect URIs', () => {
  it('refuses userinfo at registration', () => {
    for (const uri of [
      'https://app.example.com@evil.example/cb',
      'https://user:pass@app.example.com/cb',
      'http://evil@127.0.0.1/cb',
    ]) {
      expect(() => checkRedirectUri(uri), uri).toThrow(/must not contain a user name or password/);
    }
    expect(checkRedirectUri('https://app.example.com/cb')).toBe('https://app.example.com/cb');
  });

  it('lets only the port of a loopback redirect vary: no userinfo, nothing rewritten (issue 14)', () => {
    const registered = ['http://127.0.0.1/cb'];
    expect(redirectUriMatches(registered, 'http://127.0.0.1:5555/cb')).toBe(true);
    for (const given of [
      'http://evil@127.0.0.1:5555/cb',
      'http://evil:x@127.0.0.1:5555/cb',
      'http://127.0.0.1:5555/cb#x',
      'http://127.0.0.1:5555/./cb',
      'HTTP://127.0.0.1:5555/cb',
      'http://127.0.0.1:5555/cb?',
    ]) {
      expect(redirectUriMatches(registered, given), given).toBe(false);
    }
  });

  it('whatever it accepts goes to a registered host, path and query, without userinfo', () => {
    const registered = ['http://127.0.0.1/cb', 'http://[::1]/native?x=1', 'https://app.example.com/cb'];
    const piece = fc.constantFrom(
      'http://',
      'evil',
      '@',
      ':',
      '5555',
      '127.0.0.1',
      '[::1]',
      '/cb',
      '/native',
      '?x=1',
      '#',
      '/',
      '.',
      '%40',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (parts) => {
        const given = parts.join('');
        if (!redirectUriMatches(registered, given)) return;
        const url = new URL(given);
        expect(url.username + url.password).toBe('');
        expect(
          registered.some((r) => {
            const reg = new URL(r);
            return (
              reg.hostname === url.hostname && reg.pathname === url.pathname && reg.search === url.search
            );
          }),
        ).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
