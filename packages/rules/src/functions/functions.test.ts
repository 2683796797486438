// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${n} is the replacement syntax of the Rules language
// One case or more per function, from the function reference's own examples.

import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler.ts';
import { ExecutionContext } from '../context.ts';
import { parse } from '../parse.ts';
import { Scheme } from '../scheme.ts';
import { arrayOf, Bytes, Int, Ip, mapOf } from '../types.ts';
import { utf8ToBytes } from '../values/bytes.ts';
import { standardFunctions } from './index.ts';

const scheme = new Scheme({
  fields: {
    host: Bytes,
    path: Bytes,
    query: Bytes,
    body: Bytes,
    uri: Bytes,
    names: arrayOf(Bytes),
    headers: mapOf(arrayOf(Bytes)),
    ip: Ip,
    score: Int,
    now: Int,
    seed: Bytes,
  },
});

function value(expr: string, values: Record<string, unknown>): boolean {
  const ctx = new ExecutionContext(scheme);
  for (const [k, v] of Object.entries(values)) ctx.set(k, v);
  return compile(parse(expr, scheme)).execute(ctx);
}

describe('functions', () => {
  it('registers each name once', () => {
    const names = standardFunctions.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    expect(() => new Scheme({ functions: [...standardFunctions, standardFunctions[0]!] })).toThrow(
      /already registered/,
    );
  });

  it('lower, upper (ASCII only)', () => {
    expect(value('lower(host) == "www.cloudflare.com"', { host: 'WWW.cloudflare.com' })).toBe(true);
    expect(value('upper(host) == "WWW.CLOUDFLARE.COM"', { host: 'www.cloudflare.com' })).toBe(true);
    expect(value('lower(host) == "\\xc9"', { host: '\xc9' })).toBe(true);
  });

  it('len counts bytes and elements', () => {
    expect(value('len(host) == 11', { host: 'example.com' })).toBe(true);
    expect(value('len(host) == 2', { host: utf8ToBytes('é') })).toBe(true);
    expect(value('len(names) == 3', { names: ['a', 'b', 'c'] })).toBe(true);
    expect(value('len(headers) == 1', { headers: { a: ['1'] } })).toBe(true);
  });

  it('starts_with, ends_with', () => {
    expect(value('starts_with(path, "/blog")', { path: '/blog/first-post' })).toBe(true);
    expect(value('ends_with(path, ".html")', { path: '/welcome.html' })).toBe(true);
    expect(value('ends_with(path, ".html")', { path: '/welcome.htm' })).toBe(false);
  });

  it('concat joins bytes and arrays', () => {
    expect(value('concat("String1", " ", "String", "2") == "String1 String2"', {})).toBe(true);
    expect(value('concat("/archive", path) == "/archive/x"', { path: '/x' })).toBe(true);
    expect(value('len(concat(names, names)) == 4', { names: ['a', 'b'] })).toBe(true);
    expect(value('concat("a", path) == "a"', {})).toBe(false);
  });

  it('url_decode with r and u options', () => {
    expect(value('url_decode(path) == "John Doe"', { path: 'John%20Doe' })).toBe(true);
    expect(value('url_decode(path) == "John Doe"', { path: 'John+Doe' })).toBe(true);
    expect(value('url_decode(path) == "%20"', { path: '%2520' })).toBe(true);
    expect(value('url_decode(path, "r") == " "', { path: '%2520' })).toBe(true);
    expect(value('url_decode(path, "u") == "\\xe2\\x98\\x81"', { path: '%u2601' })).toBe(true);
    expect(value('url_decode(path) == "%zz%4"', { path: '%zz%4' })).toBe(true);
    expect(value('any(url_decode(names[*])[*] contains "<script")', { names: ['a', '%3Cscript%3E'] })).toBe(
      true,
    );
  });

  it('regex_replace replaces the first match, with ${n} and $$', () => {
    expect(value('regex_replace(path, "/bar$", "/baz") == "/foo/baz"', { path: '/foo/bar' })).toBe(true);
    expect(value('regex_replace(path, "^/y$", "/mumble") == "/x"', { path: '/x' })).toBe(true);
    expect(value('regex_replace(path, "^/FOO$", "/x") == "/foo"', { path: '/foo' })).toBe(true);
    expect(value('regex_replace(path, "/a", "/b") == "/b/a"', { path: '/a/a' })).toBe(true);
    expect(value('regex_replace(path, "^/b$", "/b$$") == "/b$"', { path: '/b' })).toBe(true);
    expect(
      value('regex_replace(path, "^/foo/([^/]*)/(.*)$", "/bar/${2}/${1}") == "/bar/path/a"', {
        path: '/foo/a/path',
      }),
    ).toBe(true);
  });

  it('wildcard_replace, case-insensitive unless "s"', () => {
    const uri = 'https://apps.example.com/calendar/admin?expand=true';
    expect(
      value(
        'wildcard_replace(uri, "https://*.example.com/*/*", "https://example.com/${1}/${2}/${3}") == "https://example.com/apps/calendar/admin?expand=true"',
        { uri },
      ),
    ).toBe(true);
    expect(
      value('wildcard_replace(path, "/*", "/apps/${1}") == "/apps/calendar"', { path: '/calendar' }),
    ).toBe(true);
    expect(
      value('wildcard_replace(path, "/apps/*", "/${1}") == "/calendar"', { path: '/Apps/calendar' }),
    ).toBe(true);
    expect(
      value('wildcard_replace(path, "/apps/*", "/${1}", "s") == "/Apps/calendar"', {
        path: '/Apps/calendar',
      }),
    ).toBe(true);
    expect(
      value('wildcard_replace(path, "/apps/*/login", "/${1}/login") == "/calendar/login"', {
        path: '/apps/calendar/login',
      }),
    ).toBe(true);
  });

  it('to_string', () => {
    expect(value('to_string(score) == "5"', { score: 5 })).toBe(true);
    expect(value('to_string(ip) == "2001:db8::1"', { ip: '2001:db8:0::1' })).toBe(true);
  });

  it('remove_bytes removes each listed byte', () => {
    expect(value('remove_bytes(host, "\\x2e\\x77") == "cloudflarecom"', { host: 'www.cloudflare.com' })).toBe(
      true,
    );
  });

  it('lookup_json_string and lookup_json_integer', () => {
    expect(
      value('lookup_json_string(body, "company") == "cloudflare"', {
        body: '{ "company": "cloudflare", "product": "rulesets" }',
      }),
    ).toBe(true);
    expect(
      value('lookup_json_string(body, "network", "name") == "cloudflare"', {
        body: '{ "network": { "name": "cloudflare" } }',
      }),
    ).toBe(true);
    expect(
      value('lookup_json_string(body, 1) == "cloudflare"', { body: '["other_company", "cloudflare"]' }),
    ).toBe(true);
    expect(
      value('lookup_json_string(body, "networks", 1) == "cloudflare"', {
        body: '{ "networks": ["other_company", "cloudflare"] }',
      }),
    ).toBe(true);
    expect(
      value('lookup_json_string(body, 1, "network") == "cloudflare"', {
        body: '[{ "network": "other_company" }, { "network": "cloudflare" }]',
      }),
    ).toBe(true);
    expect(
      value('lookup_json_integer(body, "version") == 2', { body: '{ "record_id": "aed53a", "version": 2 }' }),
    ).toBe(true);
    expect(
      value('lookup_json_integer(body, "product", "id") == 356', { body: '{ "product": { "id": 356 } }' }),
    ).toBe(true);
    expect(value('lookup_json_integer(body, 1) == -234', { body: '["first_item", -234]' })).toBe(true);
    expect(
      value('lookup_json_integer(body, 1, "product_id") == 456', {
        body: '[{ "product_id": 123 }, { "product_id": 456 }]',
      }),
    ).toBe(true);
    expect(value('lookup_json_integer(body, "x") == 1', { body: 'not json' })).toBe(false);
    expect(value('lookup_json_integer(body, "x") ne 1', { body: '{"x": 1.5}' })).toBe(true);
  });

  it('split, join, substring', () => {
    expect(
      value('join(split(host, ",", 64), "|") == "groceries|electronics|diy|auto"', {
        host: 'groceries,electronics,diy,auto',
      }),
    ).toBe(true);
    expect(value('split(host, ",", 3)[2] == "diy,auto"', { host: 'groceries,electronics,diy,auto' })).toBe(
      true,
    );
    expect(value('split(host, ",", 64)[1] == ""', { host: 'groceries,,electronics' })).toBe(true);
    expect(value('join(names, ",") == "a,b"', { names: ['a', 'b'] })).toBe(true);
    expect(value('substring(body, 2, 5) == "dfg"', { body: 'asdfghjk' })).toBe(true);
    expect(value('substring(body, 2) == "dfghjk"', { body: 'asdfghjk' })).toBe(true);
    expect(value('substring(body, -2) == "jk"', { body: 'asdfghjk' })).toBe(true);
    expect(value('substring(body, 0, -2) == "asdfgh"', { body: 'asdfghjk' })).toBe(true);
  });

  it('decode_base64', () => {
    expect(
      value('any(decode_base64(headers["client_id"][*])[*] eq "123abc")', {
        headers: { client_id: ['MTIzYWJj'] },
      }),
    ).toBe(true);
    expect(value('decode_base64(host) eq ""', { host: '!!' })).toBe(false);
  });

  it('cidr and cidr6', () => {
    expect(value('cidr(ip, 24, 24) == 113.10.0.0', { ip: '113.10.0.2' })).toBe(true);
    expect(value('cidr(ip, 24, 24) == 2001::', { ip: '2001:0000:130F:0000:0000:09C0:876A:130B' })).toBe(true);
    expect(value('cidr6(ip, 24) == 2001::', { ip: '2001:0000:130F:0000:0000:09C0:876A:130B' })).toBe(true);
    expect(value('cidr6(ip, 24) == 113.10.0.2', { ip: '113.10.0.2' })).toBe(true);
  });

  it('remove_query_args', () => {
    expect(
      value('remove_query_args(query, "country") == "order=asc"', { query: 'order=asc&country=GB' }),
    ).toBe(true);
    expect(
      value('remove_query_args(query, "search") == "order=asc&country=GB"', {
        query: 'order=asc&country=GB',
      }),
    ).toBe(true);
    expect(
      value('remove_query_args(query, "order") == "category=Foo&category=Bar"', {
        query: 'category=Foo&order=desc&category=Bar',
      }),
    ).toBe(true);
    expect(
      value('remove_query_args(query, "category") == "order=desc"', {
        query: 'category=Foo&order=desc&category=Bar',
      }),
    ).toBe(true);
  });

  it('uuidv4 is a version-4 UUID from the seed', () => {
    expect(
      value('uuidv4(seed) matches "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"', {
        seed: 'x'.repeat(32),
      }),
    ).toBe(true);
  });

  it('is_timed_hmac_valid_v0', () => {
    const issued = 1484063787;
    const mac = createHmac('sha256', 'mysecretkey').update(`/download/cat.jpg${issued}`).digest('base64');
    const uri = `/download/cat.jpg?verify=${issued}-${encodeURIComponent(mac)}`;
    const expr = 'is_timed_hmac_valid_v0("mysecretkey", uri, 100000, now, 8)';
    expect(value(expr, { uri, now: issued + 10 })).toBe(true);
    expect(value(expr, { uri, now: issued + 100001 })).toBe(false);
    expect(value(expr, { uri: uri.replace('cat', 'dog'), now: issued + 10 })).toBe(false);
    const urlSafe = createHmac('sha256', 'k').update(`/a${issued}`).digest('base64url');
    expect(
      value('is_timed_hmac_valid_v0("k", uri, 10, now, 0, "s")', {
        uri: `/a${issued}-${urlSafe}`,
        now: issued,
      }),
    ).toBe(true);
  });
});
