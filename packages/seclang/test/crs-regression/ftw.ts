// Reads the CRS 3.3 regression corpus (FTW YAML) and builds each test's request the way go-ftw
// sends it: form data URL-encoded when it is a single unencoded parameter, Content-Type and
// Content-Length filled in when there is data, LF → CRLF in multipart bodies; `stop_magic` turns
// that off.
// Raw and base64 requests are parsed as HTTP/1.x text.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { WafRequest } from '../../src/index.ts';

export interface FtwTest {
  file: string;
  title: string;
  request: WafRequest;
  /** The bytes go-ftw would send (for a runner that talks to a real server). */
  wire: Buffer;
  logContains: number | undefined;
  noLogContains: number | undefined;
  status: number[] | undefined;
  expectError: boolean;
}

export interface StageInput {
  method?: string;
  uri?: string;
  version?: string;
  headers?: Record<string, string | number>;
  data?: string | string[];
  stop_magic?: boolean;
  raw_request?: string;
  encoded_request?: string;
  dest_addr?: string;
}

interface StageOutput {
  log_contains?: string;
  no_log_contains?: string;
  status?: number | number[];
  expect_error?: boolean;
}

interface FtwFile {
  meta?: { enabled?: boolean };
  tests?: Array<{ test_title: string; stages: Array<{ stage: { input: StageInput; output: StageOutput } }> }>;
}

function ruleId(pattern: string | undefined): number | undefined {
  const m = pattern === undefined ? null : /(\d{6})/.exec(pattern);
  return m ? Number(m[1]) : undefined;
}

/** Go's url.QueryEscape. */
function queryEscape(s: string): string {
  return Buffer.from(s, 'latin1')
    .toString('latin1')
    .replace(/[^A-Za-z0-9\-_.~ ]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
    .replaceAll(' ', '+');
}

function goQueryUnescape(s: string): string | undefined {
  if (/%(?![0-9a-fA-F]{2})/.test(s)) return undefined;
  return s
    .replaceAll('+', ' ')
    .replace(/%([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
}

/** go-ftw's encodeDataParameter. */
function encodeFormData(data: string): string {
  if (goQueryUnescape(data) !== data || data.includes('&') || data.includes(';')) return data;
  const eq = data.indexOf('=');
  const name = eq < 0 ? data : data.slice(0, eq);
  const value = eq < 0 ? '' : data.slice(eq + 1);
  return `${queryEscape(name)}=${queryEscape(value)}`;
}

function dechunk(body: string): string | undefined {
  let out = '';
  let i = 0;
  for (;;) {
    const nl = body.indexOf('\r\n', i);
    if (nl < 0) return undefined;
    const size = Number.parseInt(body.slice(i, nl), 16);
    if (Number.isNaN(size)) return undefined;
    if (size === 0) return out;
    out += body.slice(nl + 2, nl + 2 + size);
    i = nl + 2 + size + 2;
  }
}

export function parseRawRequest(raw: string): WafRequest {
  const headEnd = raw.indexOf('\r\n\r\n');
  const head = headEnd < 0 ? raw : raw.slice(0, headEnd);
  let body = headEnd < 0 ? '' : raw.slice(headEnd + 4);
  const [line = '', ...headerLines] = head.split('\r\n');
  const parts = line.split(' ');
  const headers: Array<[string, string]> = [];
  for (const h of headerLines) {
    const colon = h.indexOf(':');
    if (colon > 0) headers.push([h.slice(0, colon), h.slice(colon + 1).trim()]);
  }
  const length = headers.find(([n]) => n.toLowerCase() === 'content-length');
  if (length) body = body.slice(0, Number(length[1]));
  return {
    method: parts[0] ?? 'GET',
    uri: parts.slice(1, -1).join(' ') || '/',
    httpVersion: parts[parts.length - 1] ?? 'HTTP/1.1',
    headers,
    body: body.length > 0 ? Buffer.from(body, 'latin1') : undefined,
  };
}

/** YAML text is Unicode; the harness sends it as UTF-8 bytes. */
function bin(s: string): string {
  return Buffer.from(s, 'utf8').toString('latin1');
}

interface Prepared {
  method: string;
  uri: string;
  version: string;
  headers: Array<[string, string]>;
  data: string | undefined;
}

/** The request as go-ftw writes it on the wire, before any web server reads it. */
function prepare(input: StageInput): Prepared {
  const headers: Array<[string, string]> = Object.entries(input.headers ?? {}).map(([k, v]) => [
    bin(k),
    bin(String(v)),
  ]);
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  const get = (name: string) => headers.find(([n]) => n.toLowerCase() === name)?.[1];
  const joined = Array.isArray(input.data) ? input.data.join('\r\n') : input.data;
  let data = joined === undefined ? undefined : bin(joined);
  if (!input.stop_magic) {
    if (data !== undefined && data.length > 0 && !has('content-type')) {
      headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
    }
    const type = (get('content-type') ?? '').toLowerCase();
    if (data !== undefined && type === 'application/x-www-form-urlencoded') data = encodeFormData(data);
    if (data !== undefined && type.startsWith('multipart/form-data;')) data = data.replace(/\r?\n/g, '\r\n');
    if (!has('connection')) headers.push(['Connection', 'close']);
    if (data !== undefined && data.length > 0 && !has('content-length')) {
      headers.push(['Content-Length', String(data.length)]);
    }
  }
  return {
    method: input.method ?? 'GET',
    uri: bin(input.uri ?? '/'),
    version: input.version ?? 'HTTP/1.1',
    headers,
    data,
  };
}

/**
 * The bytes go-ftw sends for a stage: a raw or base64 request as given, else the request line, the
 * headers in order and the data (latin1: one char per byte).
 */
export function wireRequest(input: StageInput): Buffer {
  if (input.encoded_request) return Buffer.from(input.encoded_request, 'base64');
  if (input.raw_request) return Buffer.from(bin(input.raw_request), 'latin1');
  const p = prepare(input);
  const head = [`${p.method} ${p.uri} ${p.version}`, ...p.headers.map(([n, v]) => `${n}: ${v}`), '', ''];
  return Buffer.from(head.join('\r\n') + (p.data ?? ''), 'latin1');
}

export function buildRequest(input: StageInput): WafRequest {
  if (input.encoded_request)
    return parseRawRequest(Buffer.from(input.encoded_request, 'base64').toString('latin1'));
  if (input.raw_request) return parseRawRequest(bin(input.raw_request));
  const { method, uri, version, headers, data: prepared } = prepare(input);
  let data = prepared;
  const get = (name: string) => headers.find(([n]) => n.toLowerCase() === name)?.[1];
  // The web server in front of the engine de-chunks the body and, as Apache and nginx do,
  // forwards no Content-Length alongside Transfer-Encoding.
  if (/chunked/i.test(get('transfer-encoding') ?? '')) {
    if (data !== undefined) data = dechunk(data) ?? data;
    const at = headers.findIndex(([n]) => n.toLowerCase() === 'content-length');
    if (at >= 0) headers.splice(at, 1);
  }
  return {
    method,
    uri,
    httpVersion: version,
    headers,
    remoteAddr: '127.0.0.1',
    body: data !== undefined && data.length > 0 ? Buffer.from(data, 'latin1') : undefined,
  };
}

export function loadCorpus(dir: string): FtwTest[] {
  const tests: FtwTest[] = [];
  for (const group of readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    for (const name of readdirSync(join(dir, group.name))
      .filter((f) => f.endsWith('.yaml'))
      .sort()) {
      const file = `${group.name}/${name}`;
      const doc = parse(readFileSync(join(dir, file), 'utf8')) as FtwFile;
      if (doc.meta?.enabled === false) continue;
      for (const t of doc.tests ?? []) {
        const stage = t.stages[0]!.stage;
        const out = stage.output;
        tests.push({
          file,
          title: t.test_title,
          request: buildRequest(stage.input),
          wire: wireRequest(stage.input),
          logContains: ruleId(out.log_contains),
          noLogContains: ruleId(out.no_log_contains),
          status: out.status === undefined ? undefined : [out.status].flat(),
          expectError: out.expect_error === true,
        });
      }
    }
  }
  return tests.sort((a, b) => a.title.localeCompare(b.title, 'en', { numeric: true }));
}
