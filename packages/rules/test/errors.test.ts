// Error texts: wirefilter's layout (position, line, carets, reason) and wording.

import { describe, expect, it } from 'vitest';
import { parse, RulesParseError } from '../src/index.ts';
import { parseError, reason, scheme } from './helpers.ts';

describe('error layout', () => {
  it('formats like wirefilter: position, the line, carets under the span, the reason', () => {
    expect(parseError('xyz')).toBe('Filter parsing error (1:1):\nxyz\n^^^ unknown identifier\n');
    expect(parseError('http.host eq 1234')).toBe(
      'Filter parsing error (1:14):\nhttp.host eq 1234\n             ^^^^ expected value of type Bytes, but got Int\n',
    );
  });

  it('reports line and column on later lines, carets cut at the line end', () => {
    const text = 'ssl\nand http.hots eq "a"';
    expect(parseError(text)).toBe(
      'Filter parsing error (2:5):\nand http.hots eq "a"\n    ^^^^^^^^^ unknown identifier\n',
    );
    const err = (() => {
      try {
        parse(text, scheme);
      } catch (e) {
        return e as RulesParseError;
      }
    })();
    expect(err).toBeInstanceOf(RulesParseError);
    expect(err?.line).toBe(2);
    expect(err?.column).toBe(5);
    expect(err?.span).toEqual({ start: 8, end: 17 });
    expect(err?.reason).toBe('unknown identifier');
  });

  it('puts one caret at the end of the input when something is missing', () => {
    expect(parseError('http.host eq')).toBe(
      'Filter parsing error (1:13):\nhttp.host eq\n            ^ expected literal\n',
    );
  });
});

describe('reasons', () => {
  const cases: readonly (readonly [string, string])[] = [
    ['http.hots eq "x"', 'unknown identifier'],
    ['foo(http.host)', 'unknown identifier'],
    ['http.host contains', 'expected literal'],
    ['http.host eq "abc', 'could not find an ending quote'],
    ['http.host eq r#"abc"', 'could not find an ending quote'],
    ['http.host eq "a\\qb"', 'expected ", xHH or OOO after \\'],
    ['http.host eq "\\xZZ"', 'invalid digit found in string while parsing with radix 16'],
    ['http.host eq "\\777"', 'number too large to fit in target type while parsing with radix 8'],
    ['http.host eq "a" garbage', 'unrecognised input'],
    ['http.host eq "a")', 'unrecognised input'],
    ['(ssl', 'expected literal ")"'],
    ['tcp.port eq 10fe', 'invalid digit found in string while parsing with radix 10'],
    ['tcp.port eq 0x', 'cannot parse integer from empty string while parsing with radix 16'],
    ['tcp.port eq 09', 'invalid digit found in string while parsing with radix 8'],
    [
      'tcp.port eq 99999999999999999999',
      'number too large to fit in target type while parsing with radix 10',
    ],
    ['tcp.port in {10..0}', 'incompatible range bounds'],
    ['ip.addr in {10.0.0.9..10.0.0.1}', 'incompatible range bounds'],
    ['ip.addr in {10.0.0.1..::1}', 'incompatible range bounds'],
    ['ip.addr eq 300.1.1.1', 'invalid IP address syntax'],
    ['ip.addr in {10.0.0.0/33}', 'invalid network prefix length'],
    ['http.host contains 5', 'expected value of type Bytes, but got Int'],
    ['tcp.port eq "80"', 'expected value of type Int, but got Bytes'],
    ['ip.addr eq 10.0.0.0/8', 'expected value of type Ip, but got Ip network (use `in {…}` for networks)'],
    ['tcp.port contains "a"', 'cannot perform this operation on type Int'],
    ['ip.addr matches "a"', 'cannot perform this operation on type Ip'],
    ['http.host & 1', 'cannot perform this operation on type Bytes'],
    ['ssl eq 1', 'cannot perform this operation on type Bool'],
    ['tcp.ports eq 1', 'cannot perform this operation on type Array(Int)'],
    ['http.headers eq "a"', 'cannot perform this operation on type Map(Array(Bytes))'],
    ['tcp.port in {"a"}', 'expected value of type Int, but got Bytes'],
    ['http.host in {1..2}', 'expected value of type Bytes, but got Int range'],
    ['ip.addr in $bad_hosts', 'expected value of type Ip, but got Bytes'],
    ['ip.addr in $nope', 'unknown list'],
    ['http.host', 'expected value of type Bool, but got Bytes'],
    ['tcp.ports[*] eq 80', 'expected value of type Bool, but got Array(Bool)'],
    ['lower(http.host, "x") eq "a"', 'invalid number of arguments'],
    ['starts_with(http.host)', 'invalid number of arguments'],
    ['lower(tcp.port) eq "a"', 'invalid type of argument #0: expected value of type Bytes, but got Int'],
    ['starts_with(http.host, 1)', 'invalid type of argument #1: expected value of type Bytes, but got Int'],
    ['starts_with("abc", "a")', 'invalid kind of argument #0: expected Field, but got Literal'],
    ['any(ssl)', 'invalid type of argument #0: expected value of type Array(Bool), but got Bool'],
    ['lower(http.host[*]) eq "a"', 'cannot unpack a value of type Bytes with [*]'],
    ['concat("a", http.cookies[*])[0] eq "a"', 'invalid use of map each access operator'],
    ['any(tcp.ports[*][*] eq 1)', 'invalid use of map each access operator'],
    [
      'any(tcp.ports[*] eq 1 and http.cookies[*] eq "a")',
      '[*] can only be combined with [*] over the same array',
    ],
    ['http.headers[0][0] eq "a"', 'expected a string key for type Map(Array(Bytes))'],
    ['tcp.ports["a"] eq 1', 'expected an integer index for type Array(Int)'],
    ['http.host[0] eq "a"', 'cannot index a value of type Bytes'],
    ['http.path wildcard "a**b"', 'wildcard contains a double star'],
    ['http.path wildcard "a\\\\b"', 'invalid wildcard: expected * or \\ after \\'],
    [
      'http.path matches "(a+)+"',
      'regex may backtrack catastrophically: a repeated part can match the same text in more than one way',
    ],
    [
      'http.path matches "(a|a)*b"',
      'regex may backtrack catastrophically: a repeated part can match the same text in more than one way',
    ],
    [
      'http.path matches "(\\w+\\s?)+$"',
      'regex may backtrack catastrophically: a repeated part can match the same text in more than one way',
    ],
    [
      'http.path matches "\\d+\\d*\\d+"',
      'regex may backtrack excessively: three adjacent repetitions can match the same characters',
    ],
    ['http.path matches "a(?=b)"', 'look-around, including look-ahead and look-behind, is not supported'],
    ['http.path matches "a(?<!b)"', 'look-around, including look-ahead and look-behind, is not supported'],
    ['http.path matches "(a)\\1"', 'backreferences are not supported'],
    ['http.path matches "(a"', 'unclosed group'],
    ['http.path matches "a)"', 'unopened group'],
    ['http.path matches "[a"', 'unclosed character class'],
    ['http.path matches "*a"', 'repetition operator missing expression'],
    ['http.path matches "a{2,1}"', 'invalid repetition range: the minimum is larger than the maximum'],
    ['http.path matches "a{5000}"', 'repetition count is larger than 1000'],
    ['http.path matches "\\p{Greek}"', 'Unicode character classes are not supported'],
    ['http.path matches "a(?i)b"', 'inline flags are only supported at the start of the pattern'],
    [
      'regex_replace(http.host, "a", "b") eq "x" and regex_replace(http.host, "a", "b") eq "y"',
      'only one regex_replace() or wildcard_replace() is allowed per expression',
    ],
    [
      'url_decode(http.host, "x") eq "a"',
      'invalid value of argument #1: options are "r" (recursive), "u" (%u escapes) or both',
    ],
    [
      'cidr(ip.addr, 33, 64) eq 1.2.3.4',
      'invalid value of argument #1: expected an integer between 1 and 32',
    ],
    ['split(http.host, "", 2)[0] eq "a"', 'invalid value of argument #1: the separator must not be empty'],
    ['http.host strict "a"', 'expected literal "wildcard"'],
  ];
  it.each(cases)('%s → %s', (expr, expected) => {
    expect(reason(expr)).toBe(expected);
  });

  it('wildcard star limit is configurable', () => {
    expect(reason('http.path wildcard "*_*_*"', { wildcardStarLimit: 3 })).toBeUndefined();
    expect(reason('http.path wildcard "*_*_*_*"', { wildcardStarLimit: 3 })).toBe(
      'wildcard has 4 star metacharacters, but the limit is 3',
    );
  });
});

describe('limits', () => {
  it('refuses expressions longer than 4096 bytes by default, configurable', () => {
    const clause = 'http.host eq "abcdefghij"';
    const long = Array.from({ length: 200 }, () => clause).join(' or ');
    expect(long.length).toBeGreaterThan(4096);
    expect(reason(long)).toBe(`expression is too long: ${long.length} bytes, but the limit is 4096`);
    expect(reason(long, { maxLength: 10_000 })).toBeUndefined();
    const e = parseError(long) ?? '';
    expect(e.startsWith('Filter parsing error (1:4097):')).toBe(true);
  });

  it('counts UTF-8 bytes', () => {
    const text = `http.host eq "${'é'.repeat(30)}"`;
    expect(reason(text, { maxLength: 50 })).toBe('expression is too long: 75 bytes, but the limit is 50');
  });

  it('refuses nesting deeper than 128 without overflowing the stack', () => {
    const deep = (n: number) => `${'('.repeat(n)}ssl${')'.repeat(n)}`;
    expect(reason(deep(128))).toBeUndefined();
    expect(reason(deep(129))).toBe('expression is nested too deeply: the limit is 128 levels');
    expect(reason(deep(100_000), { maxLength: 1_000_000 })).toBe(
      'expression is nested too deeply: the limit is 128 levels',
    );
    expect(reason(`${'not '.repeat(200)}ssl`)).toBe(
      'expression is nested too deeply: the limit is 128 levels',
    );
    expect(reason(`${'!'.repeat(100_000)}ssl`, { maxLength: 1_000_000 })).toBe(
      'expression is nested too deeply: the limit is 128 levels',
    );
    expect(reason(`tcp.ports${'[0]'.repeat(300)} eq 1`)).toBe(
      'expression is nested too deeply: the limit is 128 levels',
    );
    expect(reason(`${'lower('.repeat(200)}http.host${')'.repeat(200)} eq "a"`)).toBe(
      'expression is nested too deeply: the limit is 128 levels',
    );
    expect(reason(deep(10), { maxDepth: 5 })).toBe('expression is nested too deeply: the limit is 5 levels');
  });

  it('a long flat chain is fine (no recursion per clause)', () => {
    const flat = Array.from({ length: 5000 }, () => 'ssl').join(' and ');
    expect(reason(flat, { maxLength: 1_000_000 })).toBeUndefined();
  });

  it('refuses inline lists above the list size limit', () => {
    const list = (n: number) => `tcp.port in {${Array.from({ length: n }, (_, i) => i).join(' ')}}`;
    expect(reason(list(1024), { maxLength: 100_000 })).toBeUndefined();
    expect(reason(list(1025), { maxLength: 100_000 })).toBe('list has 1025 items, but the limit is 1024');
    expect(reason(list(11), { maxListItems: 10 })).toBe('list has 11 items, but the limit is 10');
  });

  it('refuses regexes longer than the regex limit', () => {
    expect(reason(`http.path matches "${'a'.repeat(2000)}"`, { maxLength: 10_000 })).toBe(
      'regex is too long: 2000 bytes, but the limit is 1024',
    );
  });
});
