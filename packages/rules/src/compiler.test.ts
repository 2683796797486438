// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${` is hostile input on purpose
// The generated code holds no user text: hostile literals in every position compile, evaluate
// like any other bytes, and never appear in the source, which contains no quote, backslash or
// slash at all. Plus the code paths that only generated code has (memoised calls, fused loops).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { context, scheme } from '../test/helpers.ts';
import { compile, generate } from './compiler.ts';
import { Emitter } from './emit.ts';
import { parse } from './parse.ts';
import { Scheme } from './scheme.ts';
import { Bytes } from './types.ts';

const HOSTILE = [
  '");process.exit(1);//',
  "');throw 1;//",
  '*/ throw 1 /*',
  '${process.exit(1)}',
  '`+x+`',
  '\\',
  '\\";',
  '\u2028\u2029',
  '</script>',
];

/** A Rules string literal for `text` (quoted, with escapes). */
function quoted(text: string): string {
  return quotedBytes(Buffer.from(text, 'utf8').toString('latin1'));
}

/** A Rules string literal for a byte string. */
function quotedBytes(bytes: string): string {
  let out = '"';
  for (const ch of bytes) {
    const c = ch.charCodeAt(0);
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c < 0x20 || c > 0x7e) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

function utf8(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

function expectNoUserText(expression: string, texts: readonly string[]): string {
  const { source } = generate(parse(expression, scheme, { maxLength: 100_000 }));
  expect(source).not.toMatch(/["'`\\/*$#\u2028\u2029]/);
  for (const text of texts) {
    for (const part of [text, utf8(text), ...text.split(/[^A-Za-z]+/).filter((w) => w.length > 3)]) {
      expect(source).not.toContain(part);
    }
  }
  return source;
}

describe('generated code', () => {
  it.each(HOSTILE)('keeps %j out of the source in every literal position', (text) => {
    const q = quoted(text);
    const expression = [
      `http.host eq ${q}`,
      `http.ua contains ${q}`,
      `http.path wildcard ${quoted(text.replace(/[\\*]/g, (m) => `\\${m}`))}`,
      `http.host in {${q} "x"}`,
      `http.headers[${q}][0] eq ${q}`,
      `any(http.cookies[*] eq ${q})`,
      `starts_with(http.path, ${q})`,
      `concat(http.host, ${q}) eq ${q}`,
      `http.args[${q}] eq ${q}`,
    ].join(' or ');
    expectNoUserText(expression, [text, 'process', 'exit', 'http', 'host', 'cookies']);
    const filter = compile(parse(expression, scheme));
    const b = utf8(text);
    expect(filter.execute(context({ 'http.host': text }))).toBe(true);
    expect(filter.execute(context({ 'http.ua': `a${text}b` }))).toBe(true);
    expect(filter.execute(context({ 'http.headers': { [text]: [text] } }))).toBe(true);
    expect(filter.execute(context({ 'http.cookies': ['x', text] }))).toBe(true);
    expect(filter.execute(context({ 'http.path': `${text}/x` }))).toBe(true);
    expect(filter.execute(context({ 'http.host': 'safe', 'http.args': { [b]: b } }))).toBe(true);
    expect(filter.execute(context({ 'http.host': 'safe', 'http.args': { [b]: 'y' } }))).toBe(false);
    expect(filter.execute(context({ 'http.host': 'safe', 'http.path': '/', 'http.ua': '' }))).toBe(false);
  });

  it('passes regexes, field names and named lists as constants', () => {
    const expression =
      `http.path matches r#"^/q"'\\*/\\$\\{x\\}\\\\"# and http.ua matches "\\"//" and ` +
      'ip.addr in $office and tcp.port in {22 8000..8009}';
    const source = expectNoUserText(expression, ['office', 'ip.addr', 'tcp.port', 'matches']);
    expect(source).not.toMatch(/8000|8009/);
    const filter = compile(parse(expression, scheme));
    const values = {
      'http.path': '/q"\'*/${x}\\',
      'http.ua': '"//',
      'ip.addr': '192.0.2.7',
      'tcp.port': 8005,
    };
    expect(filter.execute(context(values))).toBe(true);
    expect(filter.execute(context({ ...values, 'tcp.port': 8010 }))).toBe(false);
    expect(filter.execute(context({ ...values, 'http.path': '/q"\'*/${x}' }))).toBe(false);
  });

  it('holds for any bytes in any literal position (property)', () => {
    const bytes = fc.string({ unit: fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)) });
    fc.assert(
      fc.property(bytes, bytes, (a, b) => {
        const qa = quotedBytes(a);
        const qb = quotedBytes(b);
        const expression = `http.headers[${qa}][0] eq ${qb} and http.host in {${qa} ${qb}} and http.ua contains ${qb}`;
        const { source } = generate(parse(expression, scheme));
        expect(source).not.toMatch(/["'`\\/*$#]/);
        const filter = compile(parse(expression, scheme));
        const values = { 'http.headers': { [a]: [b] }, 'http.host': b, 'http.ua': `x${b}` };
        expect(filter.execute(context(values))).toBe(true);
        expect(filter.execute(context({ ...values, 'http.host': `${a}${b}!` }))).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses to link source holding a quote, a slash or a backslash', () => {
    for (const bad of ['"x"', "'x'", '`x`', 'a / b', '/re/', 'a\\u0041', '${x}', '\u2028']) {
      const out = new Emitter();
      out.declare(bad);
      expect(() => out.source('true')).toThrow(/unsafe character/);
    }
  });
});

describe('generated evaluation', () => {
  it('computes a repeated lower() once per evaluation', () => {
    const source = generate(
      parse('lower(http.ua) contains "a" or lower(http.ua) contains "b" or lower(http.host) eq "c"', scheme),
    ).source;
    expect(source).toMatch(/m0_0 = NC, m0_1 = NC;/);
    expect(source).not.toMatch(/m0_2/);
    const filter = compile(
      parse('lower(http.ua) contains "sqlmap" or lower(http.ua) contains "nikto"', scheme),
    );
    expect(filter.execute(context({ 'http.ua': 'Nikto/2.5' }))).toBe(true);
    expect(filter.execute(context({ 'http.ua': 'curl' }))).toBe(false);
    expect(filter.execute(context({}))).toBe(false);
  });

  it('reads each field at most once per context even when the expression repeats it', () => {
    let reads = 0;
    const ctx = context().define('http.ua', () => {
      reads++;
      return 'SQLMAP';
    });
    const filter = compile(
      parse('lower(http.ua) contains "x" or http.ua eq "y" or starts_with(http.ua, "S")', scheme),
    );
    expect(filter.execute(ctx)).toBe(true);
    expect(filter.execute(ctx)).toBe(true);
    expect(reads).toBe(1);
  });

  it('fuses any()/all() over elements and keeps the missing-array rules', () => {
    const some = compile(parse('any(http.cookies[*] contains "a")', scheme));
    const every = compile(parse('all(http.cookies[*] contains "a")', scheme));
    expect(some.execute(context({ 'http.cookies': ['x', 'ya'] }))).toBe(true);
    expect(every.execute(context({ 'http.cookies': ['x', 'ya'] }))).toBe(false);
    expect(every.execute(context({ 'http.cookies': [] }))).toBe(true);
    expect(some.execute(context({ 'http.cookies': [] }))).toBe(false);
    expect(every.execute(context({}))).toBe(true);
  });

  it('refuses a context of another scheme', () => {
    const filter = compile(parse('true', scheme));
    const other = compile(parse('true', new Scheme({ fields: { 'http.host': Bytes } })));
    expect(() => other.execute(context())).toThrow(/another scheme/);
    expect(filter.execute(context())).toBe(true);
  });
});
