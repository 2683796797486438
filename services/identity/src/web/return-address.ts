/** Where a person lands after signing in or up when no usable return address was given. */
export const ACCOUNT_PAGE = '/account/apps';

// Any base works: only whether the address stays on it matters. `.invalid` can never be a real host.
const BASE = 'https://cairn.invalid';

/**
 * The one decision on a post-sign-in (or sign-up) return address: a path on this site, or the account page.
 * The address is parsed as browsers parse it (WHATWG URL), because browsers drop tabs and newlines and read
 * `\` as `/`, so `/\t/evil.example` or `/\evil.example` would leave the site. Control characters, spaces,
 * backslashes and anything but one leading `/` are refused outright; what is returned is the parsed path,
 * query and fragment, re-serialised, so the Location header holds exactly what the browser will follow.
 */
export function returnAddress(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return ACCOUNT_PAGE;
  if (!value.startsWith('/') || /^\/[/\\]|[\0-\x20\x7f\\]/.test(value)) return ACCOUNT_PAGE;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return ACCOUNT_PAGE;
  }
  if (url.origin !== BASE) return ACCOUNT_PAGE;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // The serialised path must itself be a plain same-origin path (e.g. `/..//x` normalises to `//x`).
  if (!path.startsWith('/') || path.startsWith('//')) return ACCOUNT_PAGE;
  return path;
}
