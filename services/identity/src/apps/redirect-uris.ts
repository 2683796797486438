import { badRequest } from '@cairn/kit';

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * A redirect URI an app may register (RFC 9700 §2.1, §4.1.3): absolute, no fragment, https — or http to a
 * loopback host, for local development and native apps.
 */
export function checkRedirectUri(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest(`Redirect URI "${value}" is not an absolute URL`);
  }
  if (url.hash !== '' || value.includes('#'))
    throw badRequest(`Redirect URI "${value}" must not have a fragment`);
  // RFC 3986 §3.2.1 userinfo: `https://app.example.com@evil.example/` reads as one host and goes to another.
  if (url.username !== '' || url.password !== '') {
    throw badRequest(`Redirect URI "${value}" must not contain a user name or password (the part before @)`);
  }
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) {
    throw badRequest(
      `Redirect URI "${value}" must use https (http is allowed only for localhost, 127.0.0.1 and [::1])`,
    );
  }
  if (
    url.protocol !== 'https:' &&
    url.protocol !== 'http:' &&
    !/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol)
  ) {
    throw badRequest(
      `Redirect URI "${value}" must use https, loopback http, or a reverse-domain private scheme`,
    );
  }
  return value;
}

/**
 * RFC 9700 §4.1.3: exact string comparison; the one exception is the port of a loopback IP redirect, which a
 * native app picks at run time (RFC 8252 §7.3).
 */
export function redirectUriMatches(registered: readonly string[], given: string): boolean {
  if (registered.includes(given)) return true;
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' || (url.hostname !== '127.0.0.1' && url.hostname !== '[::1]')) return false;
  // Only the port may differ: no userinfo (`http://evil@127.0.0.1:5555/cb`), nothing the parser rewrote.
  if (given !== `${url.protocol}//${url.host}${url.pathname}${url.search}`) return false;
  return registered.some((r) => {
    try {
      const reg = new URL(r);
      return (
        reg.protocol === 'http:' &&
        reg.hostname === url.hostname &&
        reg.pathname === url.pathname &&
        reg.search === url.search &&
        reg.port === '' &&
        r === `${reg.protocol}//${reg.host}${reg.pathname}${reg.search}`
      );
    } catch {
      return false;
    }
  });
}

/** An origin allowed to frame our pages for this app: scheme://host[:port], nothing else. */
export function checkEmbedOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest(`Embed origin "${value}" is not a URL like https://app.example.com`);
  }
  if (url.origin === 'null' || url.origin !== value.replace(/\/$/, '')) {
    throw badRequest(`Embed origin "${value}" must be an origin only, like https://app.example.com`);
  }
  if (url.protocol !== 'https:' && !LOOPBACK.has(url.hostname)) {
    throw badRequest(`Embed origin "${value}" must use https (http only for localhost)`);
  }
  return url.origin;
}
