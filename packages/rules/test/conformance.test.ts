// Conformance cases written from the Rules language reference: each operator per type, the
// logical operators and their precedence, lists, arrays, maps, [*] and missing values.

import { describe, expect, it } from 'vitest';
import { utf8ToBytes } from '../src/index.ts';
import { run } from './helpers.ts';

// Bytes values are byte strings: text goes through utf8ToBytes.
const cafe = utf8ToBytes('café');

type Case = readonly [expr: string, values: Record<string, unknown>, expected: boolean];

function table(name: string, cases: readonly Case[]) {
  describe(name, () => {
    it.each(cases)('%s with %j → %s', (expr, values, expected) => {
      expect(run(expr, values)).toBe(expected);
    });
  });
}

table('bytes comparisons', [
  ['http.host eq "example.com"', { 'http.host': 'example.com' }, true],
  ['http.host == "example.com"', { 'http.host': 'Example.com' }, false],
  ['http.host ne "example.com"', { 'http.host': 'example.org' }, true],
  ['http.host != "example.com"', { 'http.host': 'example.com' }, false],
  ['http.host lt "b"', { 'http.host': 'a' }, true],
  ['http.host < "b"', { 'http.host': 'c' }, false],
  ['http.host le "b"', { 'http.host': 'b' }, true],
  ['http.host <= "a"', { 'http.host': 'b' }, false],
  ['http.host gt "a"', { 'http.host': 'b' }, true],
  ['http.host > "b"', { 'http.host': 'b' }, false],
  ['http.host ge "b"', { 'http.host': 'b' }, true],
  ['http.host >= "c"', { 'http.host': 'b' }, false],
  ['http.path contains "/articles/"', { 'http.path': '/en/articles/1' }, true],
  ['http.path contains "/Articles/"', { 'http.path': '/en/articles/1' }, false],
  ['http.path contains ""', { 'http.path': '' }, true],
  ['http.path matches "^/articles/200[7-8]/$"', { 'http.path': '/articles/2008/' }, true],
  ['http.path ~ "^/articles/200[7-8]/$"', { 'http.path': '/articles/2009/' }, false],
  ['http.path matches "api"', { 'http.path': '/v1/api/x' }, true],
  ['http.path matches r"/api/login\\.aspx$"', { 'http.path': '/api/login.aspx' }, true],
  ['http.path matches r"/api/login\\.aspx$"', { 'http.path': '/api/loginxaspx' }, false],
  ['http.path matches "(?i)^/ADMIN"', { 'http.path': '/admin/x' }, true],
  ['http.path matches "^a.c$"', { 'http.path': 'a\rc' }, true],
  ['http.path matches "^a.c$"', { 'http.path': 'a\nc' }, false],
  ['http.path matches "(?s)^a.c$"', { 'http.path': 'a\nc' }, true],
  ['http.path matches "a\\"b"', { 'http.path': 'xa"by' }, true],
  ['http.path matches r#"a"b"#', { 'http.path': 'a"b' }, true],
  ['http.path matches r##"a"#b"##', { 'http.path': 'a"#b' }, true],
  ['http.path matches "^\\d{3}$"', { 'http.path': '123' }, true],
  ['http.path matches "^[[:alpha:]]+$"', { 'http.path': 'abcXYZ' }, true],
  ['http.path matches "^[[:alpha:]]+$"', { 'http.path': 'abc1' }, false],
  ['http.path matches "\\Aab\\z"', { 'http.path': 'ab' }, true],
  ['http.path matches "^caf\\x{e9}$"', { 'http.path': cafe }, true],
  ['http.path matches "^café$"', { 'http.path': cafe }, true],
  ['http.host in {"a.example" "b.example"}', { 'http.host': 'b.example' }, true],
  ['http.host in {"a.example" "b.example"}', { 'http.host': 'c.example' }, false],
  ['http.host in $bad_hosts', { 'http.host': 'evil.example' }, true],
  ['http.host in $bad_hosts', { 'http.host': 'good.example' }, false],
  ['http.host eq "\\x41\\102\\"\\\\"', { 'http.host': 'AB"\\' }, true],
  ['http.host eq r"\\x41"', { 'http.host': '\\x41' }, true],
  ['http.host eq "é"', { 'http.host': utf8ToBytes('é') }, true],
  ['http.host eq "é"', { 'http.host': 'é' }, false],
]);

table('wildcard and strict wildcard', [
  ['http.path wildcard "https://example.com/a/*"', { 'http.path': 'https://example.com/a/' }, true],
  ['http.path wildcard "https://example.com/a/*"', { 'http.path': 'https://example.com/a/page.html' }, true],
  [
    'http.path wildcard "https://example.com/a/*"',
    { 'http.path': 'https://example.com/a/sub/folder/?name=value' },
    true,
  ],
  ['http.path wildcard "https://example.com/a/*"', { 'http.path': 'https://example.com/ab/' }, false],
  ['http.path wildcard "https://example.com/a/*"', { 'http.path': 'https://sub.example.com/a/' }, false],
  [
    'http.path wildcard "*.example.com/*/page.html"',
    { 'http.path': 'http://sub.example.com/folder/page.html' },
    true,
  ],
  [
    'http.path wildcard "*.example.com/*/page.html"',
    { 'http.path': 'https://admin.example.com/team/subteam/page.html' },
    true,
  ],
  [
    'http.path wildcard "*.example.com/*/page.html"',
    { 'http.path': 'https://example.com/ab/page.html' },
    false,
  ],
  [
    'http.path wildcard "*.example.com/*/page.html"',
    { 'http.path': 'https://sub.example.com/folder2/page.html?s=value' },
    false,
  ],
  ['http.path wildcard "*.example.com/*/page.html"', { 'http.path': 'https://sub.example.com/a/' }, false],
  ['http.path wildcard "HTTPS://EXAMPLE.COM/*"', { 'http.path': 'https://example.com/x' }, true],
  ['http.path strict wildcard "HTTPS://EXAMPLE.COM/*"', { 'http.path': 'https://example.com/x' }, false],
  ['http.path strict wildcard "https://example.com/*"', { 'http.path': 'https://example.com/x' }, true],
  ['http.path wildcard "a\\\\*b"', { 'http.path': 'a*b' }, true],
  ['http.path wildcard r"a\\*b"', { 'http.path': 'axxb' }, false],
  ['http.path wildcard r"a\\\\b"', { 'http.path': 'a\\b' }, true],
  ['http.path wildcard "*"', { 'http.path': '' }, true],
  ['http.path wildcard ""', { 'http.path': '' }, true],
  ['http.path wildcard "a*a"', { 'http.path': 'a' }, false],
  ['http.path wildcard "a*b*c"', { 'http.path': 'abbc' }, true],
  ['http.path wildcard "*ab*ab*"', { 'http.path': 'xabab' }, true],
  ['http.path wildcard "*ab*ab*"', { 'http.path': 'xaba' }, false],
  ['http.path wildcard "/api/*"', {}, false],
]);

table('integer comparisons', [
  ['tcp.port eq 80', { 'tcp.port': 80 }, true],
  ['tcp.port == 0x50', { 'tcp.port': 80 }, true],
  ['tcp.port == 0120', { 'tcp.port': 80 }, true],
  ['tcp.port ne 80', { 'tcp.port': 443 }, true],
  ['tcp.port lt 1024', { 'tcp.port': 80 }, true],
  ['tcp.port le 80', { 'tcp.port': 80 }, true],
  ['tcp.port gt 80', { 'tcp.port': 80 }, false],
  ['tcp.port ge 80', { 'tcp.port': 80 }, true],
  ['score < -1', { score: -5 }, true],
  ['score >= -1', { score: -5 }, false],
  ['tcp.port in {80 443 2082..2083}', { 'tcp.port': 80 }, true],
  ['tcp.port in {80 443 2082..2083}', { 'tcp.port': 8080 }, false],
  ['tcp.port in {80 443 2082..2083}', { 'tcp.port': 443 }, true],
  ['tcp.port in {80 443 2082..2083}', { 'tcp.port': 2081 }, false],
  ['tcp.port in {80 443 2082..2083}', { 'tcp.port': 2082 }, true],
  ['tcp.port in {80 443 2082..2083}', { 'tcp.port': 2083 }, true],
  ['tcp.port in {80 443 2082..2083}', { 'tcp.port': 2084 }, false],
  ['tcp.port in $ports', { 'tcp.port': 8005 }, true],
  ['tcp.port in $ports', { 'tcp.port': 23 }, false],
  ['tcp.port & 1', { 'tcp.port': 81 }, true],
  ['tcp.port bitwise_and 1', { 'tcp.port': 80 }, false],
  ['score & 0x100000000', { score: 0x100000001 }, true],
]);

table('IP comparisons', [
  ['ip.addr eq 192.0.2.1', { 'ip.addr': '192.0.2.1' }, true],
  ['ip.addr == 192.0.2.1', { 'ip.addr': '192.0.2.2' }, false],
  ['ip.addr ne 203.0.113.0', { 'ip.addr': '203.0.113.1' }, true],
  ['ip.addr eq 2001:db8::1', { 'ip.addr': '2001:0db8:0000::0001' }, true],
  ['ip.addr eq ::1', { 'ip.addr': '::1' }, true],
  ['ip.addr eq fe80::1', { 'ip.addr': 'fe80::1' }, true],
  ['ip.addr eq 192.0.2.1', { 'ip.addr': '::ffff:192.0.2.1' }, false],
  ['ip.addr lt 10.0.0.2', { 'ip.addr': '10.0.0.1' }, true],
  ['ip.addr gt 10.0.0.2', { 'ip.addr': '2001:db8::1' }, false],
  ['ip.addr in {192.0.2.0/24}', { 'ip.addr': '192.0.2.77' }, true],
  ['ip.addr in {192.0.2.0/24}', { 'ip.addr': '192.0.3.1' }, false],
  [
    'ip.addr in {198.51.100.1 198.51.100.3..198.51.100.7 192.0.2.0/24 2001:0db8::/32}',
    { 'ip.addr': '198.51.100.5' },
    true,
  ],
  [
    'ip.addr in {198.51.100.1 198.51.100.3..198.51.100.7 192.0.2.0/24 2001:0db8::/32}',
    { 'ip.addr': '198.51.100.2' },
    false,
  ],
  [
    'ip.addr in {198.51.100.1 198.51.100.3..198.51.100.7 192.0.2.0/24 2001:0db8::/32}',
    { 'ip.addr': '2001:db8:ffff::1' },
    true,
  ],
  ['ip.addr in {0.0.0.0/0}', { 'ip.addr': '8.8.8.8' }, true],
  ['ip.addr in {0.0.0.0/0}', { 'ip.addr': '::1' }, false],
  ['ip.addr in {::/0}', { 'ip.addr': '::1' }, true],
  ['ip.addr in 203.0.113.0/24', { 'ip.addr': '203.0.113.9' }, true],
  ['ip.addr in $office', { 'ip.addr': '2001:db8::5' }, true],
  ['ip.addr in $office', { 'ip.addr': '198.51.100.8' }, false],
  ['ip.addr in {192.0.2.1/24}', { 'ip.addr': '192.0.2.200' }, true],
]);

table('booleans and logical operators', [
  ['ssl', { ssl: true }, true],
  ['ssl', { ssl: false }, false],
  ['not ssl', { ssl: false }, true],
  ['!ssl', { ssl: true }, false],
  ['!!ssl', { ssl: true }, true],
  ['not not not ssl', { ssl: true }, false],
  ['true', {}, true],
  ['false', {}, false],
  ['not false', {}, true],
  ['ssl and tcp.port eq 443', { ssl: true, 'tcp.port': 443 }, true],
  ['ssl && tcp.port eq 443', { ssl: true, 'tcp.port': 80 }, false],
  ['ssl or tcp.port eq 443', { ssl: false, 'tcp.port': 443 }, true],
  ['ssl || tcp.port eq 443', { ssl: false, 'tcp.port': 80 }, false],
  ['ssl xor tcp.port eq 443', { ssl: true, 'tcp.port': 443 }, false],
  ['ssl ^^ tcp.port eq 443', { ssl: true, 'tcp.port': 80 }, true],
  ['true xor true xor true', {}, true],
  // and binds tighter than or: (false and false) or true
  ['false and false or true', {}, true],
  // and binds tighter than xor: true xor (true and false)
  ['true xor true and false', {}, true],
  // xor binds tighter than or: true or (true xor true)
  ['true or true xor true', {}, true],
  // (false or true) xor true would be false; or is loosest: false or (true xor true) = false
  ['false or true xor true', {}, false],
  // not binds tightest: (not true) and false
  ['not true and false', {}, false],
  ['not (true and false)', {}, true],
  ['(false or true) and true', {}, true],
  ['false or (true and false)', {}, false],
  ['((((ssl))))', { ssl: true }, true],
  ['not(ssl)', { ssl: false }, true],
  ['ssl\nand\ttcp.port==443', { ssl: true, 'tcp.port': 443 }, true],
]);

table('arrays, maps and [*]', [
  ['tcp.ports[0] eq 80', { 'tcp.ports': [80, 443] }, true],
  ['tcp.ports[1] eq 80', { 'tcp.ports': [80, 443] }, false],
  ['tcp.ports[5] eq 80', { 'tcp.ports': [80, 443] }, false],
  ['tcp.ports[5] ne 80', { 'tcp.ports': [80, 443] }, true],
  ['any(tcp.ports[*] eq 443)', { 'tcp.ports': [80, 443] }, true],
  ['all(tcp.ports[*] eq 443)', { 'tcp.ports': [80, 443] }, false],
  ['all(tcp.ports[*] in {80 443})', { 'tcp.ports': [80, 443] }, true],
  ['all(tcp.ports[*] eq 1)', { 'tcp.ports': [] }, true],
  ['any(tcp.ports[*] eq 1)', { 'tcp.ports': [] }, false],
  ['any(tcp.ports[*] eq 1)', {}, false],
  ['all(tcp.ports[*] eq 1)', {}, true],
  [
    'http.headers["accept"][0] eq "application/json"',
    { 'http.headers': { accept: ['application/json'] } },
    true,
  ],
  [
    'any(http.headers["accept"][*] == "application/json")',
    { 'http.headers': { accept: ['text/html', 'application/json'] } },
    true,
  ],
  [
    'any(http.headers["accept"][*] == "text/plain")',
    { 'http.headers': { accept: ['application/json'] } },
    false,
  ],
  ['http.headers["missing"][0] eq "x"', { 'http.headers': {} }, false],
  ['http.headers["missing"][0] ne "x"', { 'http.headers': {} }, true],
  ['len(http.headers["filter"]) >= 0', { 'http.headers': { filter: ['waf'] } }, true],
  ['not len(http.headers["order"]) >= 0', { 'http.headers': { filter: ['waf'] } }, true],
  [
    'all(len(http.headers["filter"][*])[*] in {3 4})',
    { 'http.headers': { filter: ['waf', 'botm', 'cdn'] } },
    true,
  ],
  [
    'all(not len(http.headers["filter"][*])[*] in {3 4})',
    { 'http.headers': { filter: ['waf', 'botm', 'cdn'] } },
    false,
  ],
  [
    'any(lower(http.header_names[*])[*] == "content-type")',
    { 'http.header_names': ['Accept', 'Content-Type'] },
    true,
  ],
  ['any(http.header_names[*] == "content-type")', { 'http.header_names': ['Accept', 'Content-Type'] }, false],
  [
    'any(http.header_names[*] == "a" or http.header_names[*] == "b")',
    { 'http.header_names': ['x', 'b'] },
    true,
  ],
  [
    'any(http.header_names[*] == "a" and http.header_names[*] == "b")',
    { 'http.header_names': ['a', 'b'] },
    false,
  ],
  ['any(not http.header_names[*] == "a")', { 'http.header_names': ['a', 'a'] }, false],
  ['any(http.flags[*])', { 'http.flags': [false, true] }, true],
  ['all(http.flags[*])', { 'http.flags': [false, true] }, false],
  ['http.flags[1]', { 'http.flags': [false, true] }, true],
  ['any(http.headers[*][0] == "v2")', { 'http.headers': { a: ['v1'], b: ['v2', 'v3'] } }, true],
  ['any(http.headers[*][1] == "v1")', { 'http.headers': { a: ['v1'], b: ['v2', 'v3'] } }, false],
  ['any(http.args[*] contains "<script")', { 'http.args': { q: 'x<script>' } }, true],
  ['any(http.cookies[*] in $bad_hosts)', { 'http.cookies': ['bad.example'] }, true],
  ['any(starts_with(http.cookies[*], "sess")[*])', { 'http.cookies': ['a', 'session=1'] }, true],
  ['http.args["q"] eq "1"', { 'http.args': new Map([['q', '1']]) }, true],
]);

table('missing values', [
  ['http.host eq "a"', {}, false],
  ['http.host ne "a"', {}, true],
  ['http.host lt "a"', {}, false],
  ['http.host contains "a"', {}, false],
  ['http.host matches "a"', {}, false],
  ['http.host wildcard "*"', {}, false],
  ['http.host in {"a"}', {}, false],
  ['ip.addr eq 1.1.1.1', {}, false],
  ['ip.addr ne 1.1.1.1', {}, true],
  ['ip.addr in {0.0.0.0/0}', {}, false],
  ['tcp.port lt 10', {}, false],
  ['tcp.port ge 10', {}, false],
  ['tcp.port & 1', {}, false],
  ['ssl', {}, false],
  ['not ssl', {}, true],
  ['lower(http.host) eq "a"', {}, false],
  ['len(http.host) ge 0', {}, false],
  ['starts_with(http.host, "a")', {}, false],
  ['not starts_with(http.host, "a")', {}, true],
]);
