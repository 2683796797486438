import { percentDecode, splitPairs } from '../../managed/attacks/decode.ts';
import { isRawUploadType } from '../../managed/raw-upload-types.ts';
import type { RequestView } from '../request.ts';
import { collectJson } from './json.ts';
import { collectMultipart, multipartBoundary } from './multipart.ts';
import type { Collect, InspectedInput } from './types.ts';
import { collectXml } from './xml.ts';

export type { InputLocation, InspectedInput } from './types.ts';

/**
 * Headers that say how to carry the request, not what it asks: their values are the proxy's and the
 * browser's, never an application's input. The rest (User-Agent, Referer, X-*, …) are inspected.
 */
const TRANSPORT_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'te',
  'upgrade',
  'accept',
  'accept-encoding',
  'accept-language',
  'accept-charset',
  'authorization',
  'proxy-authorization',
  'cache-control',
  'pragma',
  'if-none-match',
  'if-match',
  'if-modified-since',
  'if-unmodified-since',
  'range',
  'upgrade-insecure-requests',
  'dnt',
  'priority',
]);

const cache = new WeakMap<RequestView, readonly InspectedInput[]>();

/**
 * The request's values as an application reads them, each decoded once: the path, the query arguments,
 * the body's fields (form, JSON, multipart, XML; other text whole), the headers and the cookies. Names
 * are inputs too. Computed once per request, whichever rules ask; linear in the request's size.
 */
export function inspectedInputs(view: RequestView): readonly InspectedInput[] {
  const hit = cache.get(view);
  if (hit) return hit;
  const out: InspectedInput[] = [];
  const collect: Collect = (location, name, value) => {
    if (value !== '') out.push({ location, name, value });
  };
  collect('path', 'path', percentDecode(view.path, false));
  collectArgs('query', view.query, collect);
  collectHeaders(view, collect);
  collectBody(view, collect);
  cache.set(view, out);
  return out;
}

function collectArgs(location: 'query' | 'body', text: string, collect: Collect): void {
  for (const [name, value] of splitPairs(text, '&', true)) {
    collect(location, name, name);
    collect(location, name, value);
  }
}

function collectHeaders(view: RequestView, collect: Collect): void {
  for (const [rawName, value] of view.headers) {
    const name = rawName.toLowerCase();
    if (TRANSPORT_HEADERS.has(name) || name.startsWith('sec-')) continue;
    if (name === 'cookie') {
      for (const [cookie, v] of splitPairs(value, ';', false)) {
        collect('cookie', cookie, cookie);
        collect('cookie', cookie, v);
      }
      continue;
    }
    collect('header', name, value);
    if (name === 'referer') {
      const q = value.indexOf('?');
      if (q >= 0)
        for (const [arg, v] of splitPairs(value.slice(q + 1), '&', true))
          collect('header', `referer:${arg}`, v);
    }
  }
}

function collectBody(view: RequestView, collect: Collect): void {
  const body = view.request.body;
  if (!body || body.length === 0) return;
  const type = (view.header('content-type') ?? '').toLowerCase();
  const text = body.toString('utf8');
  // A raw upload's bytes are data, not arguments: read as text, a photo's bytes look like anything. Only a
  // body that parses as JSON whole is read, as an application that parses any body as JSON would.
  if (isRawUploadType(type)) {
    const first = text.trimStart()[0];
    if (first === '{' || first === '[') collectJson(text, collect);
    return;
  }
  if (type.startsWith('application/x-www-form-urlencoded')) {
    collectArgs('body', text, collect);
    return;
  }
  if (type.startsWith('multipart/')) {
    const boundary = multipartBoundary(view.header('content-type') ?? '');
    if (boundary) {
      collectMultipart(text, boundary, collect);
      return;
    }
  }
  if (type.includes('xml')) {
    collectXml(text, collect);
    return;
  }
  const start = text.trimStart()[0];
  // JSON sent as text/plain or without a type is still JSON to the application that parses it.
  if ((type.includes('json') || start === '{' || start === '[') && collectJson(text, collect)) return;
  if (type === '' && /^[^\s=&]{1,256}=/.test(text)) {
    collectArgs('body', text, collect);
    return;
  }
  collect('body', 'body', text);
}
