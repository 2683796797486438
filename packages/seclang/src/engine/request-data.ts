// Turns the data plane's request into the raw material of the request variables: request line
// parts, headers, cookies and query-string arguments, all as binary (latin1) strings.

import { decodeUrl } from '../transformations/url-decode.ts';
import { EntryList } from './collections/entry-list.ts';

export interface WafRequest {
  method: string;
  /**
   * Path and query string the rules see (REQUEST_URI, REQUEST_FILENAME, ARGS_GET): as sent on the
   * request line, or its normalised form when the caller normalises URLs (an absolute URI is accepted too).
   */
  uri: string;
  /** The target as received when `uri` is its normalised form (REQUEST_URI_RAW, REQUEST_LINE); default `uri`. */
  uriRaw?: string;
  /** `1.1`, `2` or `HTTP/1.1`. */
  httpVersion?: string;
  /** In arrival order, duplicates kept. */
  headers: ReadonlyArray<readonly [string, string]>;
  remoteAddr?: string;
  remotePort?: number;
  body?: Buffer | Uint8Array | string;
  /** The geolocation database @geoLookup consults (none: @geoLookup never matches). */
  geoLookup?: GeoLookup;
}

/** What @geoLookup puts in the GEO collection; absent fields are left out. */
export interface GeoRecord {
  countryCode?: string;
  countryCode3?: string;
  countryName?: string;
  continent?: string;
  region?: string;
  city?: string;
  postalCode?: string;
  latitude?: number;
  longitude?: number;
}

/** An IP address (text) → its record, or undefined when the database does not know it. */
export type GeoLookup = (address: string) => GeoRecord | undefined;

export interface RequestData {
  method: string;
  protocol: string;
  requestLine: string;
  /** REQUEST_URI: path and query, without scheme and host. */
  uri: string;
  /** REQUEST_URI_RAW: as sent. */
  uriRaw: string;
  queryString: string;
  /** REQUEST_FILENAME: the path, percent-decoded. */
  filename: string;
  basename: string;
  headers: EntryList;
  cookies: EntryList;
  argsGet: EntryList;
  body: string | undefined;
  bodyLength: number;
  remoteAddr: string;
  remotePort: number;
  contentType: string;
  defaultBodyProcessor: string | undefined;
}

/** Splits `a=1&b=2` into decoded name/value pairs (ModSecurity's argument parsing). */
export function parseQuery(text: string, separator: string, into: EntryList = new EntryList()): EntryList {
  if (text.length === 0) return into;
  for (const piece of text.split(separator)) {
    if (piece.length === 0) continue;
    const eq = piece.indexOf('=');
    const name = eq < 0 ? piece : piece.slice(0, eq);
    const value = eq < 0 ? '' : piece.slice(eq + 1);
    into.add(decodeUrl(name, false), decodeUrl(value, false));
  }
  return into;
}

/** Cookie header(s) to name/value pairs; values are not decoded. */
export function parseCookies(headers: EntryList): EntryList {
  const cookies = new EntryList();
  for (const h of headers.byKey('cookie')) {
    for (const raw of h.value.split(';')) {
      const piece = raw.replace(/^[ \t]+/, '');
      if (piece.length === 0) continue;
      const eq = piece.indexOf('=');
      if (eq < 0) cookies.add(piece, '');
      else cookies.add(piece.slice(0, eq), piece.slice(eq + 1));
    }
  }
  return cookies;
}

function bodyString(body: WafRequest['body']): string | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string') return body;
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1');
}

function protocolOf(version: string | undefined): string {
  if (!version) return 'HTTP/1.1';
  return version.toUpperCase().startsWith('HTTP/') ? version : `HTTP/${version}`;
}

export function parseRequestData(req: WafRequest, separator: string): RequestData {
  const uriRaw = req.uriRaw ?? req.uri;
  let uri = req.uri;
  const abs = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*/.exec(uri);
  if (abs) uri = uri.slice(abs[0].length) || '/';
  const q = uri.indexOf('?');
  const path = q < 0 ? uri : uri.slice(0, q);
  const queryString = q < 0 ? '' : uri.slice(q + 1);
  const filename = decodeUrl(path, false, false);
  const slash = filename.lastIndexOf('/');
  const headers = new EntryList();
  for (const [name, value] of req.headers) headers.add(name, value);
  const protocol = protocolOf(req.httpVersion);
  const contentType = (headers.byKey('content-type')[0]?.value ?? '').toLowerCase();
  let defaultBodyProcessor: string | undefined;
  if (contentType.startsWith('application/x-www-form-urlencoded')) defaultBodyProcessor = 'URLENCODED';
  else if (contentType.startsWith('multipart/form-data')) defaultBodyProcessor = 'MULTIPART';
  const body = bodyString(req.body);
  return {
    method: req.method,
    protocol,
    requestLine: `${req.method} ${uriRaw} ${protocol}`,
    uri,
    uriRaw,
    queryString,
    filename,
    basename: slash < 0 ? filename : filename.slice(slash + 1),
    headers,
    cookies: parseCookies(headers),
    argsGet: parseQuery(queryString, separator),
    body,
    bodyLength: body?.length ?? 0,
    remoteAddr: req.remoteAddr ?? '127.0.0.1',
    remotePort: req.remotePort ?? 0,
    contentType,
    defaultBodyProcessor,
  };
}
