// ModSecurity's body limits and body errors: SecRequestBodyLimitAction Reject refuses a body over the
// limit (413) and ProcessPartial inspects its first part; multipart fields count toward
// SecRequestBodyNoFilesLimit (file data does not); JSON that is not UTF-8 is a body error.
import { describe, expect, it } from 'vitest';
import { BASE_CONFIG } from '../src/base-config.ts';
import { loadRules, type WafRequest } from '../src/index.ts';
import { post } from './fixtures.ts';

const RULES = `${BASE_CONFIG}
SecDefaultAction "phase:2,log,pass"
SecRule ARGS:late "@rx ." "id:10,phase:2,deny,status:403"
`;

function multipart(parts: Array<{ name: string; value: string; filename?: string }>): WafRequest {
  const body =
    parts
      .map(
        (p) =>
          `--b0undary\r\nContent-Disposition: form-data; name="${p.name}"` +
          `${p.filename ? `; filename="${p.filename}"` : ''}\r\n\r\n${p.value}\r\n`,
      )
      .join('') + '--b0undary--\r\n';
  return post('/upload', 'multipart/form-data; boundary=b0undary', body);
}

const TEXT_200K = 'All work and no play makes Jack a dull boy. '.repeat(4_700);

describe('SecRequestBodyLimitAction on a URL-encoded body padded past the limit', () => {
  // issue 40: 135,000 bytes of padding push the injection past the first 128 KiB
  const padded = post(
    '/login',
    'application/x-www-form-urlencoded',
    `pad=${'A'.repeat(135_000)}&user=admin'--&password=x`,
  );
  const withUser = `${RULES}\nSecRule ARGS:user "@rx '--" "id:11,phase:2,deny,status:403"\n`;

  it('Reject (the default): refused with 413 before any rule sees the body, naming the limit', () => {
    const r = loadRules(withUser).evaluate(padded);
    expect(r).toMatchObject({ decision: 'block', status: 413, bodyLimitExceeded: true });
    expect(r.bodyLimitMessage).toBe('Request body is bigger than the maximum expected (131072 bytes)');
    expect(r.matchedRules.map((m) => m.id)).not.toContain(11);
  });

  it('ProcessPartial: the first 128 KiB are inspected and the rest is not (the injection passes)', () => {
    const r = loadRules(`${withUser}SecRequestBodyLimitAction ProcessPartial\n`).evaluate(padded);
    expect(r.decision).toBe('allow');
    expect(r.bodyLimitExceeded).toBe(true);
    const early = post(
      '/login',
      'application/x-www-form-urlencoded',
      `user=admin'--&pad=${'A'.repeat(135_000)}`,
    );
    expect(loadRules(`${withUser}SecRequestBodyLimitAction ProcessPartial\n`).evaluate(early)).toMatchObject({
      decision: 'block',
      ruleId: 11,
    });
  });

  it('SecRequestBodyLimit and SecRequestBodyNoFilesLimit set the limit; a body within it is read whole', () => {
    const raised = `${withUser}SecRequestBodyNoFilesLimit 200000\n`;
    expect(loadRules(raised).evaluate(padded)).toMatchObject({ decision: 'block', ruleId: 11 });
    const lowered = `${withUser}SecRequestBodyLimit 1000\n`;
    const small = post('/login', 'application/x-www-form-urlencoded', `pad=${'A'.repeat(2000)}`);
    expect(loadRules(lowered).evaluate(small)).toMatchObject({ decision: 'block', status: 413 });
  });

  it('JSON bodies too', () => {
    const json = post(
      '/api',
      'application/json',
      JSON.stringify({ pad: 'A'.repeat(135_000), user: "admin'--" }),
    );
    expect(loadRules(withUser).evaluate(json)).toMatchObject({ decision: 'block', status: 413 });
  });
});

describe("SecArgumentsLimit (1000) and rule 200007, as in Debian's modsecurity.conf", () => {
  const doc = (n: number) =>
    JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])));

  it('refuses 1,000 arguments with 400 (200007) and lets 999 through', () => {
    expect(loadRules(RULES).evaluate(post('/api', 'application/json', doc(1000)))).toMatchObject({
      decision: 'block',
      status: 400,
      ruleId: 200007,
    });
    expect(loadRules(RULES).evaluate(post('/api', 'application/json', doc(999))).decision).toBe('allow');
  });

  it('counts the query: 2 query arguments and 998 in the body reach the limit', () => {
    expect(loadRules(RULES).evaluate(post('/api?a=1&b=2', 'application/json', doc(998)))).toMatchObject({
      ruleId: 200007,
    });
  });
});

describe('SecRequestBodyNoFilesLimit on multipart bodies', () => {
  it('refuses 200 KB of multipart text with 413, naming the limit', () => {
    const r = loadRules(RULES).evaluate(multipart([{ name: 'essay', value: TEXT_200K }]));
    expect(r.decision).toBe('block');
    expect(r.status).toBe(413);
    expect(r.bodyLimitExceeded).toBe(true);
    expect(r.bodyLimitMessage).toBe(
      'Request body excluding files is bigger than the maximum expected (131072 bytes)',
    );
  });

  it('does not count file data: a 200 KB upload beside small fields passes', () => {
    const r = loadRules(RULES).evaluate(
      multipart([
        { name: 'title', value: 'holiday' },
        { name: 'photo', value: TEXT_200K, filename: 'notes.txt' },
      ]),
    );
    expect(r.decision).toBe('allow');
    expect(r.bodyLimitExceeded).toBeUndefined();
  });

  it('with ProcessPartial, inspects the fields up to the limit and reads none past it', () => {
    const partial = `${RULES}\nSecRequestBodyLimitAction ProcessPartial\n`;
    const over = multipart([
      { name: 'essay', value: TEXT_200K },
      { name: 'late', value: 'x' },
    ]);
    const r = loadRules(partial).evaluate(over);
    expect(r.decision).toBe('allow');
    expect(r.bodyLimitExceeded).toBe(true);
    const within = multipart([
      { name: 'essay', value: 'short' },
      { name: 'late', value: 'x' },
    ]);
    expect(
      loadRules(partial)
        .evaluate(within)
        .matchedRules.map((m) => m.id),
    ).toEqual([10]);
  });
});

describe('invalid UTF-8 in JSON', () => {
  const json = (bytes: Buffer): WafRequest => ({
    ...post('/api', 'application/json', ''),
    headers: [
      ['Host', 'api.example.com'],
      ['Content-Type', 'application/json'],
    ],
    body: bytes,
  });

  it('is a body error (400 by rule 200002), as yajl refuses it in ModSecurity', () => {
    for (const bad of [[0xff], [0xc3], [0xe2, 0x82], [0xf8, 0x88, 0x80, 0x80, 0x80]]) {
      const body = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from(bad), Buffer.from('"}')]);
      const r = loadRules(RULES).evaluate(json(body));
      expect(r.bodyError).toBe('JSON parsing error: lexical error: invalid bytes in UTF8 string.');
      expect(r).toMatchObject({ decision: 'block', status: 400, ruleId: 200002 });
    }
  });

  it('checks the structure of UTF-8 only, as yajl does: overlong forms and encoded surrogates pass', () => {
    for (const odd of [
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
    ]) {
      const body = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from(odd), Buffer.from('"}')]);
      expect(loadRules(RULES).evaluate(json(body)).bodyError).toBeUndefined();
    }
  });

  it('accepts valid multi-byte UTF-8', () => {
    const r = loadRules(RULES).evaluate(json(Buffer.from('{"name":"café 🏔"}', 'utf8')));
    expect(r.bodyError).toBeUndefined();
    expect(r.decision).toBe('allow');
  });
});

describe('invalid UTF-8 in request headers (requestHeadersUtf8)', () => {
  const get = (value: string): WafRequest => ({
    method: 'GET',
    uri: '/',
    headers: [
      ['Host', 'example.com'],
      ['X-Note', value],
    ],
  });
  const utf8Waf = () => {
    const waf = loadRules(RULES);
    waf.ruleset.config.requestHeadersUtf8 = true;
    return waf;
  };

  it('is a body error naming the header (400 by rule 200002), as invalid UTF-8 in JSON is', () => {
    for (const bad of [[0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xc0, 0xaf]]) {
      const value = `caf${Buffer.from(bad).toString('latin1')}`;
      const r = utf8Waf().evaluate(get(value));
      expect(r.bodyError).toBe('Request header X-Note: invalid bytes in UTF8 string');
      expect(r.headerError).toBe(true);
      expect(r).toMatchObject({ decision: 'block', status: 400, ruleId: 200002 });
    }
  });

  it('accepts UTF-8 and ASCII headers, and is off unless asked for (ModSecurity does not check headers)', () => {
    expect(utf8Waf().evaluate(get(Buffer.from('café 🏔', 'utf8').toString('latin1'))).decision).toBe('allow');
    expect(loadRules(RULES).evaluate(get('caf\xff')).decision).toBe('allow');
  });
});
