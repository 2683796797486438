import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ATTACK_RULES } from '../../managed/attack-rules.ts';
import { engineScheme } from '../expressions.ts';
import { RequestView } from '../request.ts';
import { inspectedInputs } from './index.ts';

// Any request, however malformed, gives the attack rules inputs without throwing, and every matcher
// answers on every input: no request makes the Managed Ruleset fail (which the proxy would answer 500).

const scheme = engineScheme();
const hostile = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '%',
    '%c0%af',
    '%zz',
    '\0',
    '\ud800',
    '../',
    ';id',
    "'",
    '"',
    '<',
    '{"a":',
    '[[[[',
    '--b\r\n',
    '&#x',
    '$(',
    '`',
    'O:1:"',
    '\r\n\r\n',
  ),
);
const text = fc.array(hostile, { maxLength: 6 }).map((parts) => parts.join(''));
const contentType = fc.constantFrom(
  '',
  'application/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=b',
  'multipart/form-data',
  'text/xml',
  'text/plain',
  'application/octet-stream',
);

function view(url: string, headers: string[], body: Buffer | undefined): RequestView {
  return new RequestView(
    {
      method: 'POST',
      url,
      rawUrl: url,
      httpVersion: '1.1',
      rawHeaders: headers,
      ip: '192.0.2.1',
      host: 'x.example',
      scheme: 'http',
      port: 80,
      ...(body ? { body } : {}),
      bodyTruncated: false,
      rayId: '0123456789abcdef',
      timestamp: 0,
      zone: { name: 'x.example', plan: 'pro' },
    },
    scheme,
  );
}

describe('attack inputs and matchers on any request', () => {
  it('never throw, and every input keeps a part and a name', () => {
    fc.assert(
      fc.property(
        text,
        contentType,
        text,
        text,
        fc.uint8Array({ maxLength: 200 }),
        (q, type, header, cookie, raw) => {
          const body = Buffer.concat([Buffer.from(q), Buffer.from(raw)]);
          const v = view(`/${q}?${q}`, ['content-type', type, 'user-agent', header, 'cookie', cookie], body);
          const inputs = inspectedInputs(v);
          for (const input of inputs) {
            expect(['path', 'query', 'body', 'header', 'cookie']).toContain(input.location);
            for (const rule of ATTACK_RULES) if (rule.reads(input)) rule.match(input.value);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('read a deeply nested JSON body without using the call stack', () => {
    const deep = `${'['.repeat(100_000)}"x"${']'.repeat(100_000)}`;
    const inputs = inspectedInputs(view('/', ['content-type', 'application/json'], Buffer.from(deep)));
    expect(inputs.filter((i) => i.location === 'body')).toEqual([{ location: 'body', name: '', value: 'x' }]);
  });
});
