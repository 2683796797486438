import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EdgeFixture, startEdge } from './helpers.ts';

// For every edge API route of the served OpenAPI document: each string field of its body, each string
// query parameter and each path parameter, made hostile (NUL, a lone surrogate, bytes that are not
// UTF-8, nesting past the limit): always a 4xx inside the envelope (issue 15, item 5).
let f: EdgeFixture;
let operations: Operation[];

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
}

interface Operation {
  method: string;
  template: string;
  /** A body the schema allows (strings "x"), or undefined for bodyless operations. */
  sample: unknown;
  /** JSON pointers of the sample's string fields. */
  strings: string[][];
  queryStrings: string[];
}

const typeOf = (s: Schema) => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type);

/** A value the schema allows, with every object property filled in (so every string field is there). */
function sampleOf(s: Schema, depth = 0): unknown {
  const alternative = s.anyOf ?? s.oneOf;
  if (alternative) return sampleOf(alternative.find((a) => typeOf(a) !== 'null') ?? alternative[0]!, depth);
  if (s.enum) return s.enum[0];
  switch (typeOf(s)) {
    case 'object':
      return depth > 6
        ? {}
        : Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, sampleOf(v, depth + 1)]));
    case 'array':
      return s.items && depth <= 6 ? [sampleOf(s.items, depth + 1)] : [];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    default:
      return 'x';
  }
}

function stringPaths(value: unknown, at: string[] = []): string[][] {
  if (typeof value === 'string') return [at];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPaths(v, [...at, String(i)]));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...at, k]));
  return [];
}

function withValue(root: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = (Array.isArray(root) ? [...root] : { ...(root as object) }) as Record<string, unknown>;
  copy[path[0]!] = withValue(copy[path[0]!], path.slice(1), value);
  return copy;
}

beforeAll(async () => {
  f = await startEdge();
  const doc = (await (await fetch(`${f.baseUrl}/openapi/edge.json`)).json()) as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
  operations = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    if (!template.startsWith('/client/v4/')) continue;
    for (const [method, op] of Object.entries(item)) {
      const body = (op.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)
        ?.content?.['application/json']?.schema;
      const sample = body ? sampleOf(body) : undefined;
      const params = (op.parameters ?? []) as { in: string; name: string; schema?: Schema }[];
      operations.push({
        method: method.toUpperCase(),
        template,
        sample,
        strings: sample === undefined ? [] : stringPaths(sample),
        queryStrings: params
          .filter((p) => p.in === 'query' && typeOf(p.schema ?? {}) === 'string')
          .map((p) => p.name),
      });
    }
  }
}, 60_000);
afterAll(() => f?.close());

const SOME_ID = 'a'.repeat(32);

function pathOf(op: Operation, hostileParam?: { name: string; value: string }): string {
  return op.template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    if (hostileParam?.name === name) return hostileParam.value;
    if (name === 'zone_id') return f.zones.enterprise.id;
    if (name === 'ruleset_phase') return 'http_request_firewall_custom';
    if (name === 'ruleset_version') return '1';
    return SOME_ID;
  });
}

/** A hostile string: ordinary text with the bad part somewhere in it. */
const around = (bad: string) =>
  fc.tuple(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 })).map(([a, b]) => `${a}${bad}${b}`);

// Placeholder for raw bytes that JSON.stringify can't produce: replaced in the serialised body.
const BAD_BYTES = '<<hostile-bytes-7f3a>>';

type Hostile = { kind: 'text'; value: string } | { kind: 'bytes' } | { kind: 'deep' };
const hostileValue: fc.Arbitrary<Hostile> = fc.oneof(
  around('\u0000').map((value) => ({ kind: 'text' as const, value })),
  around('\ud800').map((value) => ({ kind: 'text' as const, value })),
  fc.constant({ kind: 'bytes' as const }),
  fc.constant({ kind: 'deep' as const }),
);

async function send(method: string, path: string, body?: Buffer) {
  const response = await fetch(`${f.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${f.token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body } : {}),
  });
  const text = await response.text();
  return { status: response.status, text };
}

function expectRefusedInEnvelope(a: { status: number; text: string }, what: string) {
  expect(a.status, `${what}: ${a.text}`).toBeGreaterThanOrEqual(400);
  expect(a.status, `${what}: ${a.text}`).toBeLessThan(500);
  const body = JSON.parse(a.text) as {
    result: unknown;
    success: boolean;
    errors: { code: number; message: string }[];
  };
  expect(body, what).toMatchObject({ result: null, success: false, messages: [] });
  expect(body.errors.length, what).toBeGreaterThan(0);
  expect(body.errors[0]!.code, what).toBeTypeOf('number');
  // Refused for the hostile part, not for something else the sample got wrong.
  expect(body.errors[0]!.message, what).toMatch(/NUL|surrogate|UTF-8|nested deeper|percent-encod/);
}

function serialise(sample: unknown, path: string[], hostile: Hostile): Buffer {
  if (hostile.kind === 'text') return Buffer.from(JSON.stringify(withValue(sample, path, hostile.value)));
  if (hostile.kind === 'deep') {
    const text = JSON.stringify(withValue(sample, path, BAD_BYTES));
    return Buffer.from(text.replace(JSON.stringify(BAD_BYTES), `${'['.repeat(200)}${']'.repeat(200)}`));
  }
  const [head, tail] = JSON.stringify(withValue(sample, path, BAD_BYTES)).split(BAD_BYTES) as [
    string,
    string,
  ];
  return Buffer.concat([Buffer.from(head), Buffer.from([0x78, 0xc0, 0xaf, 0xff]), Buffer.from(tail)]);
}

describe('every edge API route under hostile strings', () => {
  it('the document lists the routes, and most take a body or a query', () => {
    expect(operations.length).toBeGreaterThan(50);
    expect(operations.filter((o) => o.strings.length > 0).length).toBeGreaterThan(15);
  });

  it('each string field of a body made hostile: 4xx in the envelope', async () => {
    const withStrings = operations.filter((o) => o.strings.length > 0);
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.nat(), hostileValue, async (which, field, hostile) => {
        const op = withStrings[which % withStrings.length]!;
        const path = op.strings[field % op.strings.length]!;
        const a = await send(op.method, pathOf(op), serialise(op.sample, path, hostile));
        expectRefusedInEnvelope(a, `${op.method} ${op.template} /${path.join('/')} ${hostile.kind}`);
      }),
      { numRuns: 150 },
    );
  });

  it('each string query parameter and path parameter made hostile: 4xx in the envelope', async () => {
    const badEncodings = fc.constantFrom('a%00b', '%C0%AF', '%ED%A0%80', 'x%FFy', '%zz');
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.nat(), fc.boolean(), badEncodings, async (which, pick, inPath, bad) => {
        const op = operations[which % operations.length]!;
        const params = [...op.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
        const body = op.sample === undefined ? undefined : Buffer.from(JSON.stringify(op.sample));
        let url: string;
        if (inPath && params.length > 0) {
          url = pathOf(op, { name: params[pick % params.length]!, value: bad });
        } else if (op.queryStrings.length > 0) {
          url = `${pathOf(op)}?${op.queryStrings[pick % op.queryStrings.length]}=${bad}`;
        } else return;
        const a = await send(op.method, url, body);
        expectRefusedInEnvelope(a, `${op.method} ${url}`);
      }),
      { numRuns: 150 },
    );
  });
});
