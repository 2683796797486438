// The ReDoS suite's cases, shared by test/redos.test.ts and bench/waf-worst.ts: each attack string
// (recheck's attacks on the CRS regexes, from testdata/redos-attacks.json, plus the inputs that made
// rule 941160 quadratic) placed in every position a request carries — a header, a cookie, the query,
// a url-encoded form, a multipart field, a JSON string, XML text — at the largest size the edge
// proxy admits there, and split into as many small url-encoded arguments as fit (`args`: 100
// characters each, up to SecArgumentsLimit, so that no single value is large): 16 KB of request head (node's limit) and EDGE_WAF_BODY_LIMIT (128 KB) of body.

import { readFileSync } from 'node:fs';
import type { WafRequest } from '../../src/index.ts';
import { ATTACKS_FILE, type RedosEntry } from './attack-file.ts';

export const POSITIONS = [
  'header',
  'cookie',
  'query',
  'urlencoded',
  'args',
  'multipart',
  'json',
  'xml',
] as const;
export type Position = (typeof POSITIONS)[number];

/** Bytes of one header value or of the request target: node's 16 KB head minus the other headers. */
export const HEAD_BYTES = 15_000;
/** Bytes of body the edge proxy hands to the WAF (EDGE_WAF_BODY_LIMIT's default). */
export const BODY_BYTES = 131_072;
/** Arguments of one body (SecArgumentsLimit is 1000; past it the body is an error). */
const MAX_ARGS = 999;

export interface Attack {
  /** What the attack aims at: `941160` (rule ids) or a description. */
  target: string;
  /** The attack string of about `size` characters. */
  build(size: number): string;
}

export interface RedosCase {
  target: string;
  position: Position;
  /** Bytes of the placed (encoded) payload. */
  size: number;
  request: WafRequest;
}

const BASE_HEADERS: Array<[string, string]> = [
  ['Host', 'shop.example.com'],
  ['User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0'],
  ['Accept', '*/*'],
];

/** recheck's attack: each pump's prefix, the pump repeated to reach `size`, then the suffix. */
function pumped(entry: RedosEntry): Attack {
  const pumps = entry.pumps ?? [];
  const fixed = pumps.reduce((n, p) => n + p.prefix.length, 0) + (entry.suffix ?? '').length;
  const unit = pumps.reduce((n, p) => n + p.pump.length, 0) || 1;
  return {
    target: entry.rules.join(','),
    build(size) {
      const times = Math.max(1, Math.floor((size - fixed) / unit));
      return pumps.map((p) => p.prefix + p.pump.repeat(times)).join('') + (entry.suffix ?? '');
    },
  };
}

const repeated = (target: string, unit: string): Attack => ({
  target,
  build: (size) => unit.repeat(Math.max(1, Math.floor(size / unit.length))),
});

/** Every attack: recheck's, one per vulnerable CRS regex, and the inputs of issue 13 for 941160. */
export function attacks(): Attack[] {
  const entries = JSON.parse(readFileSync(ATTACKS_FILE, 'utf8')) as RedosEntry[];
  return [
    repeated('941160 (issue 13)', "'(;--/*<a "),
    repeated('941160 (tags)', '<a '),
    ...entries.filter((e) => e.pumps?.length).map(pumped),
  ];
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Latin1 text: one char per byte, as the proxy hands bytes to the engine. */
const bytes = (s: string) => Buffer.from(s, 'latin1').toString('latin1');

/** The largest payload of `attack` whose placed form fits in `limit` bytes. */
function fit(attack: Attack, limit: number, encode: (s: string) => string): string {
  let size = limit;
  for (let i = 0; i < 6; i++) {
    const placed = encode(attack.build(size));
    if (placed.length <= limit) return placed;
    size = Math.floor((size * limit) / placed.length) - 16;
  }
  return encode(attack.build(Math.floor(size / 2)));
}

function post(contentType: string, body: string): WafRequest {
  return {
    method: 'POST',
    uri: '/submit',
    httpVersion: '1.1',
    headers: [...BASE_HEADERS, ['Content-Type', contentType], ['Content-Length', String(body.length)]],
    body: Buffer.from(body, 'latin1'),
  };
}

/** `attack` in `position`, at the largest size the proxy admits there (or at most `cap` bytes). */
export function place(attack: Attack, position: Position, cap = Number.POSITIVE_INFINITY): RedosCase {
  const HEAD = Math.min(HEAD_BYTES, cap);
  const BODY = Math.min(BODY_BYTES, cap);
  const at = (size: number, request: WafRequest): RedosCase => ({
    target: attack.target,
    position,
    size,
    request,
  });
  switch (position) {
    case 'header': {
      const value = fit(attack, HEAD, (s) => bytes(s).replace(/[\r\n\0]/g, ' '));
      return at(value.length, {
        method: 'GET',
        uri: '/',
        headers: [...BASE_HEADERS, ['Referer', value]],
      });
    }
    case 'cookie': {
      const value = fit(attack, HEAD, (s) => bytes(s).replace(/[\r\n\0;]/g, ' '));
      return at(value.length, {
        method: 'GET',
        uri: '/',
        headers: [...BASE_HEADERS, ['Cookie', `q=${value}`]],
      });
    }
    case 'query': {
      const value = fit(attack, HEAD, encodeURIComponent);
      return at(value.length, { method: 'GET', uri: `/search?q=${value}`, headers: BASE_HEADERS });
    }
    case 'urlencoded': {
      const value = fit(attack, BODY - 2, encodeURIComponent);
      return at(value.length, post('application/x-www-form-urlencoded', `q=${value}`));
    }
    case 'args': {
      const one = encodeURIComponent(attack.build(Math.min(100, cap)));
      const fields: string[] = [];
      let size = 0;
      while (fields.length < MAX_ARGS && size + one.length + 8 < BODY) {
        const field = `a${fields.length}=${one}`;
        fields.push(field);
        size += field.length + 1;
      }
      return at(size, post('application/x-www-form-urlencoded', fields.join('&')));
    }
    case 'multipart': {
      const head = '--xyzzy\r\nContent-Disposition: form-data; name="q"\r\n\r\n';
      const tail = '\r\n--xyzzy--\r\n';
      const value = fit(attack, BODY - head.length - tail.length, (s) =>
        bytes(s).replace(/--xyzzy/g, '--xyzz'),
      );
      return at(value.length, post('multipart/form-data; boundary=xyzzy', `${head}${value}${tail}`));
    }
    case 'json': {
      const value = fit(attack, BODY - 8, (s) => JSON.stringify(s.replace(/[\x80-\xff]/g, ' ')));
      return at(value.length, post('application/json', `{"q":${value}}`));
    }
    case 'xml': {
      const value = fit(attack, BODY - 8, (s) => xmlEscape(s.replace(/[^\t\n\r\x20-\x7e]/g, ' ')));
      return at(value.length, post('text/xml', `<q>${value}</q>`));
    }
  }
}

/** Every attack in every position, at the largest size the proxy admits or at most `cap` bytes. */
export function redosCases(cap?: number): RedosCase[] {
  return attacks().flatMap((a) => POSITIONS.map((p) => place(a, p, cap)));
}

/** CPU milliseconds of `fn` (this process). */
export function cpuMs(fn: () => void): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
