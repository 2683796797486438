// The recorded attack corpus of the differential harness (bench/waf-differential.ts, issue 40): one request a line, as the vulnerable
// origin received it (bench/vulnerable-origin.ts), gzip-compressed when stored. Helpers to record, read,
// write, deduplicate and turn a recorded request into a WafRequest.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { WafRequest } from '../../src/index.ts';

export interface RecordedRequest {
  method: string;
  /** Path and query, exactly as sent. */
  url: string;
  /** Raw header pairs, in order. */
  headers: Array<[string, string]>;
  /** The body as text when it is UTF-8, else in base64 (bodyBase64). */
  body?: string;
  bodyBase64?: string;
  /** Which tool sent it: `sqlmap:<tamper>`, `wapiti`, `wapiti-payloads:<file>`. */
  source?: string;
}

/** Headers a replay sets itself (the connection's own business). */
const HOP = new Set(['connection', 'keep-alive', 'content-length', 'transfer-encoding', 'proxy-connection']);

export function recordOf(req: IncomingMessage, body: Buffer): RecordedRequest {
  const headers: Array<[string, string]> = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    headers.push([req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string]);
  const r: RecordedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers };
  if (body.length > 0) {
    const text = body.toString('utf8');
    if (Buffer.from(text, 'utf8').equals(body)) r.body = text;
    else r.bodyBase64 = body.toString('base64');
  }
  return r;
}

export function bodyOf(r: RecordedRequest): Buffer | undefined {
  if (r.body !== undefined) return Buffer.from(r.body, 'utf8');
  if (r.bodyBase64 !== undefined) return Buffer.from(r.bodyBase64, 'base64');
  return undefined;
}

export const header = (r: RecordedRequest, name: string): string | undefined =>
  r.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];

/** The host every replay uses in place of the origin's loopback address. */
export const REPLAY_HOST = 'shop.example.test';

/**
 * The request as the WAF sees it behind an HTTP server: header values trimmed, hop-by-hop headers dropped,
 * Content-Length recomputed, a Host that named the origin's loopback address replaced by REPLAY_HOST (an
 * injected Host is kept).
 */
export function toWafRequest(r: RecordedRequest): WafRequest {
  const body = bodyOf(r);
  const headers: Array<[string, string]> = [];
  for (const [name, raw] of r.headers) {
    const lower = name.toLowerCase();
    // what an HTTP parser hands on: a field value without the whitespace around it (RFC 9110 §5.5)
    const value = raw.replace(/^[ \t]+|[ \t]+$/g, '');
    if (HOP.has(lower)) continue;
    if (lower === 'host' && /^127\.0\.0\.1(:\d+)?$/.test(value)) headers.push([name, REPLAY_HOST]);
    else headers.push([name, value]);
  }
  if (!headers.some(([n]) => n.toLowerCase() === 'host')) headers.unshift(['Host', REPLAY_HOST]);
  if (body !== undefined) headers.push(['Content-Length', String(body.length)]);
  return {
    method: r.method,
    uri: r.url,
    httpVersion: '1.1',
    remoteAddr: '203.0.113.7',
    headers,
    ...(body === undefined ? {} : { body }),
  };
}

/** Identity of a request for deduplication: method, URL, body and the headers that are not per-connection. */
export function requestKey(r: RecordedRequest): string {
  const w = toWafRequest(r);
  const h = createHash('sha256');
  h.update(`${w.method} ${w.uri}\n`);
  for (const [n, v] of w.headers) h.update(`${n.toLowerCase()}: ${v}\n`);
  if (w.body) h.update(w.body);
  return h.digest('hex').slice(0, 24);
}

export function dedupe(list: Iterable<RecordedRequest>): RecordedRequest[] {
  const seen = new Map<string, RecordedRequest>();
  for (const r of list) {
    const key = requestKey(r);
    if (!seen.has(key)) seen.set(key, r);
  }
  return [...seen.values()];
}

export function readJsonl(path: string): RecordedRequest[] {
  const raw = readFileSync(path);
  const text = path.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as RecordedRequest);
}

export function writeJsonl(path: string, list: readonly unknown[]): void {
  const text = list.map((r) => JSON.stringify(r)).join('\n') + '\n';
  writeFileSync(path, path.endsWith('.gz') ? gzipSync(text, { level: 9 }) : text);
}
