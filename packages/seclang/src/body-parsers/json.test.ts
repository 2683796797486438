// The JSON processor against what ModSecurity v3.0.9 gives for the same bodies (testdata/json-body.json),
// its limits, and hostile input: any JSON document, of any depth or size within the limits, parses
// without throwing and gives one argument per scalar, in linear time.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultEngineConfig } from '../engine/config.ts';
import { json } from './json.ts';

interface Vector {
  body: string;
  args?: [string, string][];
  error?: string;
  note?: string;
}

const VECTORS = (
  JSON.parse(readFileSync(new URL('../../testdata/json-body.json', import.meta.url), 'utf8')) as {
    cases: Vector[];
  }
).cases;

const config = defaultEngineConfig();
const parse = (body: string, priorArgs = 0) => json.parse(body, 'application/json', config, priorArgs);
const pairs = (body: string, priorArgs = 0) =>
  (parse(body, priorArgs).args?.entries ?? []).map((e) => [e.key, e.value] as [string, string]);
const sorted = (list: [string, string][]) => [...list].sort((a, b) => (a.join('\0') < b.join('\0') ? -1 : 1));

describe('JSON bodies as ModSecurity v3.0.9 reads them (testdata/json-body.json)', () => {
  for (const v of VECTORS) {
    it(`${JSON.stringify(v.body).slice(0, 60)}${v.note ? ` (${v.note})` : ''}`, () => {
      const result = parse(v.body);
      if (v.error !== undefined) {
        expect(result.error).toBe(v.error);
      } else {
        expect(result.error).toBeUndefined();
        expect(sorted(pairs(v.body))).toEqual(sorted(v.args ?? []));
      }
    });
  }

  it('keeps the arguments in document order', () => {
    expect(pairs('{"b":1,"a":[2,{"c":3}],"d":4}').map(([k]) => k)).toEqual([
      'json.b',
      'json.a.array_0',
      'json.a.array_1.c',
      'json.d',
    ]);
  });
});

describe('limits', () => {
  const nested = (n: number, open: string, close: string) => `${open.repeat(n)}1${close.repeat(n)}`;

  it('accepts 512 levels of nesting and stops at 513, as SecRequestBodyJsonDepthLimit 512 does', () => {
    for (const [open, close] of [
      ['[', ']'],
      ['{"a":', '}'],
    ] as const) {
      expect(parse(nested(512, open, close)).error).toBeUndefined();
      expect(parse(nested(513, open, close)).error).toBe(
        'JSON parsing error: parse error: client cancelled parse via callback return value. Parsing depth limit exceeded',
      );
    }
    expect(pairs(nested(3, '[', ']'))).toEqual([['json.array_0.array_0.array_0', '1']]);
  });

  it('counts the query arguments toward SecArgumentsLimit (1000) and stops at the one past it', () => {
    const doc = (n: number) =>
      JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])));
    expect(parse(doc(1000)).error).toBeUndefined();
    expect(parse(doc(1000)).args?.entries).toHaveLength(1000);
    const over = parse(doc(1001));
    expect(over.error).toBe(
      'JSON parsing error: parse error: client cancelled parse via callback return value',
    );
    expect(over.args?.entries).toHaveLength(1000);
    expect(parse(doc(999), 2).error).toMatch(/client cancelled/);
  });
});

/** Every scalar of a JSON value, in document order. */
function scalars(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + scalars(v), 0);
  if (value !== null && typeof value === 'object')
    return Object.values(value).reduce((n: number, v) => n + scalars(v), 0);
  return 1;
}

describe('any JSON document', () => {
  it('parses without error, one argument per scalar (up to the limit), strings as UTF-8 bytes', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), (value) => {
        const text = JSON.stringify(value);
        const body = Buffer.from(text, 'utf8').toString('latin1');
        const result = parse(body);
        const expected = Math.min(scalars(value), config.argumentsLimit);
        if (scalars(value) > config.argumentsLimit) expect(result.error).toMatch(/client cancelled/);
        else expect(result.error).toBeUndefined();
        expect(result.args?.entries).toHaveLength(expected);
        if (typeof value === 'string') {
          expect(result.args?.entries[0]?.value).toBe(Buffer.from(value, 'utf8').toString('latin1'));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary bytes, truncated documents or deep nesting', () => {
    const pieces = fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      '"',
      ':',
      ',',
      '\\',
      'u',
      'd8',
      '1',
      '-',
      'e',
      '.',
      'true',
      'nul',
      ' ',
      '\xff',
      '\xc3',
      '\x00',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 200 }), fc.jsonValue(), fc.nat(40), (junk, value, cut) => {
        const text = JSON.stringify(value);
        for (const body of [
          junk.join(''),
          text.slice(0, Math.max(0, text.length - cut)),
          `${text}${junk.join('')}`,
        ]) {
          const result = parse(body);
          expect(result.args).toBeDefined();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads 100,000 levels of nesting and 1 MB of arguments without recursion (bounded)', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(parse(deep).error).toMatch(/depth limit/);
    const wide = `[${Array.from({ length: 900 }, () => `"${'x'.repeat(1100)}"`).join(',')}]`;
    expect(parse(wide).args?.entries).toHaveLength(900);
  });
});
