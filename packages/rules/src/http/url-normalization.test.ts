import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler.ts';
import { parse } from '../parse.ts';
import { httpRequestScheme } from './fields.ts';
import { createRequestContext } from './request-context.ts';
import {
  normalizeRequestTarget,
  normalizeUrlPath,
  removeDotSegments,
  type UrlNormalizationType,
} from './url-normalization.ts';

describe('normalizeUrlPath', () => {
  // The real service's table of examples (rules/normalization/examples).
  it('follows the documented examples', () => {
    expect(normalizeUrlPath('/%68ello', 'rfc3986')).toBe('/hello');
    expect(normalizeUrlPath('/%68ello', 'cloudflare')).toBe('/hello');
    expect(normalizeUrlPath('/%68ello//pa\\th', 'rfc3986')).toBe('/hello//pa%5Cth');
    expect(normalizeUrlPath('/%68ello//pa\\th', 'cloudflare')).toBe('/hello/pa/th');
  });

  it('decodes unreserved characters only and upper-cases the other escapes', () => {
    expect(normalizeUrlPath('/%73ecret.txt', 'cloudflare')).toBe('/secret.txt');
    expect(normalizeUrlPath('/%2eenv', 'cloudflare')).toBe('/.env');
    expect(normalizeUrlPath('/%2egit/config', 'cloudflare')).toBe('/.git/config');
    expect(normalizeUrlPath('/a%2fb%3f%7e%5F', 'rfc3986')).toBe('/a%2Fb%3F~_');
    expect(normalizeUrlPath('/a b/%zz/%4', 'rfc3986')).toBe('/a%20b/%25zz/%254');
    expect(normalizeUrlPath("/:@!$&'()*+,;=", 'rfc3986')).toBe("/:@!$&'()*+,;=");
    expect(normalizeUrlPath('/caf\u00e9/\u20ac', 'rfc3986')).toBe('/caf%E9/%E2%82%AC');
  });

  it('removes dot segments, also encoded ones', () => {
    expect(normalizeUrlPath('/./secret.txt', 'rfc3986')).toBe('/secret.txt');
    expect(normalizeUrlPath('/a/b/../../secret.txt', 'rfc3986')).toBe('/secret.txt');
    expect(normalizeUrlPath('/%2e%2E/%2e/secret.txt', 'rfc3986')).toBe('/secret.txt');
    expect(normalizeUrlPath('/../../etc/passwd', 'rfc3986')).toBe('/etc/passwd');
    expect(normalizeUrlPath('/a/..', 'rfc3986')).toBe('/');
    expect(normalizeUrlPath('/a/.', 'rfc3986')).toBe('/a/');
    expect(normalizeUrlPath('/a\\..\\secret.txt', 'cloudflare')).toBe('/secret.txt');
    expect(removeDotSegments('a/../b')).toBe('b');
  });

  it('merges successive slashes in the cloudflare type only', () => {
    expect(normalizeUrlPath('//secret.txt', 'cloudflare')).toBe('/secret.txt');
    expect(normalizeUrlPath('/a///b//', 'cloudflare')).toBe('/a/b/');
    expect(normalizeUrlPath('//secret.txt', 'rfc3986')).toBe('//secret.txt');
  });

  it('leaves the query as received', () => {
    expect(normalizeRequestTarget('/%61/./b?x=%61&y=/../', 'cloudflare')).toBe('/a/b?x=%61&y=/../');
    expect(normalizeRequestTarget('http://h.test//%61?q', 'cloudflare')).toBe('http://h.test/a?q');
    expect(normalizeRequestTarget('*', 'cloudflare')).toBe('*');
  });

  it('is idempotent, and its output needs no further normalisation', () => {
    const type = fc.constantFrom<UrlNormalizationType>('cloudflare', 'rfc3986');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), type, (raw, t) => {
        const once = normalizeUrlPath(`/${raw}`, t);
        expect(normalizeUrlPath(once, t)).toBe(once);
        expect(once.startsWith('/')).toBe(true);
        expect(once).toMatch(/^[A-Za-z0-9\-._~:@!$&'()*+,;=/%]*$/);
      }),
      { numRuns: 500 },
    );
  });
});

// A path p, and variants of it that name the same resource: unreserved characters percent-encoded
// (either hex case), `./` and `x/../` segments inserted, slashes doubled, `\` for `/`.
const segment = fc.stringMatching(/^[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,7}$/).filter((s) => s !== '..');
const pathArb = fc.array(segment, { minLength: 1, maxLength: 5 }).map((s) => `/${s.join('/')}`);

function variant(path: string, choices: number[]): string {
  let i = 0;
  const pick = (n: number) => (choices[i++ % choices.length] ?? 0) % n;
  const out: string[] = [];
  for (const ch of path) {
    if (ch === '/') {
      out.push(['/', '//', '/./', '/zz/../', '\\', '/%2e/', '/q/%2E%2e/'][pick(7)] as string);
    } else {
      const hex = ch.charCodeAt(0).toString(16);
      out.push([ch, `%${hex}`, `%${hex.toUpperCase()}`][pick(3)] as string);
    }
  }
  const sent = out.join('');
  return sent.startsWith('/') ? sent : `/${sent}`; // a request target starts with a slash
}

describe('a rule on a path decides alike for every variant of it', () => {
  const scheme = httpRequestScheme();
  it('http.request.uri.path eq p matches every variant; raw.* sees what was sent', () => {
    fc.assert(
      fc.property(pathArb, fc.array(fc.nat(), { minLength: 1, maxLength: 20 }), (p, choices) => {
        const sent = variant(p, choices);
        const rule = compile(parse(`http.request.uri.path eq ${JSON.stringify(p)}`, scheme));
        const url = normalizeRequestTarget(sent, 'cloudflare');
        const ctx = createRequestContext(scheme, { method: 'GET', url, rawUrl: sent });
        expect(rule.execute(ctx)).toBe(true);
        expect(ctx.get('raw.http.request.uri.path')).toBe(sent);
      }),
      { numRuns: 300 },
    );
  });
});
