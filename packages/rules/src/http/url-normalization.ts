// URL normalisation as the real edge does it before its rules run (its zone setting
// `url_normalization`, types `rfc3986` and `cloudflare`). Only the path is normalised; the query
// string is left as received.
//
// rfc3986 (RFC 3986 §6.2.2): percent-encoded unreserved characters (ALPHA DIGIT - . _ ~) are
// decoded, other percent-encodings are upper-cased, reserved characters stay as they are, any
// other byte (space, `\`, `"`, non-ASCII, a `%` that starts no escape…) is percent-encoded, and dot
// segments are removed (§5.2.4).
// cloudflare: the same, after turning `\` into `/`, and with successive slashes merged into one.

export type UrlNormalizationType = 'cloudflare' | 'rfc3986';

const HEX = '0123456789ABCDEF';

const isUnreserved = (c: number) =>
  (c >= 0x41 && c <= 0x5a) ||
  (c >= 0x61 && c <= 0x7a) ||
  (c >= 0x30 && c <= 0x39) ||
  c === 0x2d ||
  c === 0x2e ||
  c === 0x5f ||
  c === 0x7e;

// What a path keeps as written besides unreserved characters: RFC 3986 §3.3 pchar's sub-delims, ':' and
// '@', and the '/' between segments. '[' and ']' (allowed only in a host) and a literal '?' or '#' are
// percent-encoded, so the output is a valid path that a second normalisation leaves unchanged.
const PATH_KEEP = new Set(":/@!$&'()*+,;=".split('').map((c) => c.charCodeAt(0)));

const hexValue = (c: number) =>
  c >= 0x30 && c <= 0x39
    ? c - 0x30
    : c >= 0x41 && c <= 0x46
      ? c - 0x37
      : c >= 0x61 && c <= 0x66
        ? c - 0x57
        : -1;

const encodeByte = (b: number) => `%${HEX[b >> 4]}${HEX[b & 15]}`;

/** Percent-encoding normalisation of a path (bytes as a latin1 string; wider characters as UTF-8). */
function normalizePercent(path: string): string {
  let out = '';
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c === 0x25) {
      const hi = i + 2 < path.length ? hexValue(path.charCodeAt(i + 1)) : -1;
      const lo = hi < 0 ? -1 : hexValue(path.charCodeAt(i + 2));
      if (lo >= 0) {
        const b = hi * 16 + lo;
        out += isUnreserved(b) ? String.fromCharCode(b) : encodeByte(b);
        i += 2;
      } else {
        out += '%25';
      }
    } else if (isUnreserved(c) || PATH_KEEP.has(c)) {
      out += path[i];
    } else if (c < 0x100) {
      out += encodeByte(c);
    } else {
      for (const b of Buffer.from(String.fromCodePoint(path.codePointAt(i) ?? c), 'utf8'))
        out += encodeByte(b);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < path.length) i++;
    }
  }
  return out;
}

/** RFC 3986 §5.2.4 remove_dot_segments, on a path that starts with `/` (or not). */
export function removeDotSegments(path: string): string {
  const segments = path.split('/');
  const floor = path.startsWith('/') ? 1 : 0; // the empty segment before a leading slash stays
  const out: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i] as string;
    const last = i === segments.length - 1;
    if (s === '.' || s === '..') {
      if (s === '..' && out.length > floor) out.pop();
      if (last) out.push('');
    } else {
      out.push(s);
    }
  }
  const joined = out.join('/');
  return path.startsWith('/') && !joined.startsWith('/') ? `/${joined}` : joined;
}

/** The normalised form of a URL path. */
export function normalizeUrlPath(path: string, type: UrlNormalizationType): string {
  let p = path;
  if (type === 'cloudflare') p = p.replaceAll('\\', '/');
  p = normalizePercent(p);
  if (type === 'cloudflare') p = p.replace(/\/{2,}/g, '/');
  return removeDotSegments(p);
}

/**
 * The normalised form of a request target: origin-form `/path?query` (the query kept as received)
 * or an absolute URL (its path normalised). `*` and other targets are returned unchanged.
 */
export function normalizeRequestTarget(target: string, type: UrlNormalizationType): string {
  const abs = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(target);
  const prefix = abs ? abs[0] : '';
  const rest = target.slice(prefix.length);
  if (!abs && !rest.startsWith('/')) return target;
  const q = rest.indexOf('?');
  const path = q < 0 ? rest : rest.slice(0, q);
  const query = q < 0 ? '' : rest.slice(q);
  return `${prefix}${normalizeUrlPath(path, type)}${query}`;
}
