import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EdgeFixture, startEdge } from './helpers.ts';

// The edge API validates with the route schemas /openapi/edge.json shows (issue 17). For every edge API
// operation of that document: arbitrary JSON bodies (whole, or one field of a valid-looking body
// replaced) and arbitrary query parameters (declared names, any text, repeated) are never a 5xx, and a
// refusal is the envelope with a code and a message. Also: the document gives the types, ranges and
// enums the validation enforces.
let f: EdgeFixture;
let operations: Operation[];

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  pattern?: string;
  additionalProperties?: unknown;
}

interface Operation {
  method: string;
  template: string;
  body?: Schema;
  query: string[];
}

interface Doc {
  paths: Record<
    string,
    Record<string, { parameters?: { in: string; name: string; schema: Schema }[] } & Record<string, unknown>>
  >;
}

let doc: Doc;

/** A value the schema allows, roughly: enough to get past the first checks to the deeper ones. */
function sampleOf(s: Schema, depth = 0): unknown {
  if (s.anyOf) return sampleOf(s.anyOf[0]!, depth);
  if (s.enum) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'object':
      return depth > 6
        ? {}
        : Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, sampleOf(v, depth + 1)]));
    case 'array':
      return s.items && depth <= 6 ? [sampleOf(s.items, depth + 1)] : [];
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      return 'x';
  }
}

function fieldPaths(value: unknown, at: string[] = []): string[][] {
  const here = at.length > 0 ? [at] : [];
  if (Array.isArray(value)) return [...here, ...value.flatMap((v, i) => fieldPaths(v, [...at, String(i)]))];
  if (value && typeof value === 'object')
    return [...here, ...Object.entries(value).flatMap(([k, v]) => fieldPaths(v, [...at, k]))];
  return here;
}

function withValue(root: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = (Array.isArray(root) ? [...root] : { ...(root as object) }) as Record<string, unknown>;
  copy[path[0]!] = withValue(copy[path[0]!], path.slice(1), value);
  return copy;
}

beforeAll(async () => {
  f = await startEdge();
  doc = (await (await fetch(`${f.baseUrl}/openapi/edge.json`)).json()) as Doc;
  operations = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    if (!template.startsWith('/client/v4/')) continue;
    for (const [method, op] of Object.entries(item)) {
      // Deleting the zone every other call uses would leave nothing but 404s to look at.
      if (method === 'delete' && template === '/client/v4/zones/{zone_id}') continue;
      const body = (op.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)
        ?.content?.['application/json']?.schema;
      operations.push({
        method: method.toUpperCase(),
        template,
        ...(body ? { body } : {}),
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      });
    }
  }
}, 60_000);
afterAll(() => f?.close());

const SOME_ID = 'a'.repeat(32);

function pathOf(op: Operation): string {
  return op.template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    if (name === 'zone_id') return f.zones.enterprise.id;
    if (name === 'ruleset_phase') return 'http_request_firewall_custom';
    if (name === 'ruleset_version') return '1';
    if (name === 'setting_id') return 'security_level';
    return SOME_ID;
  });
}

async function send(method: string, path: string, body?: string) {
  const response = await fetch(`${f.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${f.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body }),
  });
  return { status: response.status, text: await response.text() };
}

function expectNo5xx(a: { status: number; text: string }, what: string) {
  expect(a.status, `${what}: ${a.text}`).toBeLessThan(500);
  if (a.status < 400 || a.text === '') return;
  const body = JSON.parse(a.text) as { success: boolean; errors: { code: number; message: string }[] };
  expect(body.success, what).toBe(false);
  expect(body.errors[0]!.code, what).toBeTypeOf('number');
  expect(body.errors[0]!.message.length, what).toBeGreaterThan(0);
}

const queryText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.integer().map(String),
  fc.constantFrom('', 'true', 'false', '1', '0', '-1', '1e3', '0x10', ' 5', '99999999999', 'null', SOME_ID),
);

describe('arbitrary input to every edge API route', () => {
  it('the document lists the routes', () => {
    expect(operations.length).toBeGreaterThan(50);
    expect(operations.filter((o) => o.body).length).toBeGreaterThan(20);
    expect(operations.filter((o) => o.query.length > 0).length).toBeGreaterThan(15);
  });

  it('arbitrary JSON bodies, whole or in place of one field: never a 5xx', async () => {
    const withBody = operations.filter((o) => o.body);
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        fc.jsonValue({ maxDepth: 4 }),
        async (which, field, whole, value) => {
          const op = withBody[which % withBody.length]!;
          const sample = sampleOf(op.body!);
          const fields = fieldPaths(sample);
          const body =
            whole || fields.length === 0 ? value : withValue(sample, fields[field % fields.length]!, value);
          const a = await send(op.method, pathOf(op), JSON.stringify(body));
          expectNo5xx(a, `${op.method} ${op.template} ${JSON.stringify(body).slice(0, 300)}`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('arbitrary query parameters, repeated or not: never a 5xx', async () => {
    const withQuery = operations.filter((o) => o.query.length > 0);
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.array(fc.tuple(fc.nat(), queryText), { minLength: 1, maxLength: 4 }),
        async (which, pairs) => {
          const op = withQuery[which % withQuery.length]!;
          const query = pairs
            .map(([n, v]) => `${encodeURIComponent(op.query[n % op.query.length]!)}=${encodeURIComponent(v)}`)
            .join('&');
          const body = op.body ? JSON.stringify(sampleOf(op.body)) : undefined;
          const a = await send(op.method, `${pathOf(op)}?${query}`, body);
          expectNo5xx(a, `${op.method} ${op.template}?${query}`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the document gives the types, ranges, enums and patterns the routes validate', () => {
    const param = (path: string, method: string, name: string) =>
      doc.paths[path]![method]!.parameters!.find((p) => p.name === name)!.schema;
    expect(param('/client/v4/zones/{zone_id}/firewall/rules', 'get', 'per_page')).toMatchObject({
      type: 'integer',
      minimum: 5,
      maximum: 100,
    });
    expect(param('/client/v4/zones/{zone_id}/firewall/rules', 'get', 'action').enum).toContain('block');
    expect(param('/client/v4/zones/{zone_id}/rulesets/{ruleset_id}', 'get', 'ruleset_id')).toMatchObject({
      type: 'string',
      pattern: '^[0-9a-f]{32}$',
    });
    const body = (path: string, method: string) =>
      (doc.paths[path]![method]!.requestBody as { content: { 'application/json': { schema: Schema } } })
        .content['application/json'].schema;
    const record = body('/client/v4/zones/{zone_id}/dns_records', 'post');
    expect(record.additionalProperties).toBe(false);
    expect(record.properties!.ttl).toMatchObject({ type: 'integer', minimum: 1, maximum: 86_400 });
    expect(record.properties!.type!.enum).toEqual(['TXT']);
  });
});
