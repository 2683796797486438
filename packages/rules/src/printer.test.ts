import { describe, expect, it } from 'vitest';
import { defaultLimits } from './limits.ts';
import { parseSyntax } from './parser.ts';
import { print, printString } from './printer.ts';

const canon = (text: string) => print(parseSyntax(text, defaultLimits));

describe('print', () => {
  it('uses English operators and single spaces', () => {
    expect(canon('http.host=="a"&&!ssl||x.y>=0x10')).toBe('http.host eq "a" and not ssl or x.y ge 16');
    expect(canon('a ^^ b')).toBe('a xor b');
    expect(canon('x ~ "a"')).toBe('x matches "a"');
    expect(canon('x & 4')).toBe('x bitwise_and 4');
    expect(canon('x strict   wildcard "a*"')).toBe('x strict wildcard "a*"');
  });

  it('adds parentheses only where the structure needs them', () => {
    expect(canon('(a and b) or c')).toBe('a and b or c');
    expect(canon('a and (b or c)')).toBe('a and (b or c)');
    expect(canon('(a and b) and c')).toBe('(a and b) and c');
    expect(canon('not (a or b)')).toBe('not (a or b)');
    expect(canon('a xor (b and c)')).toBe('a xor b and c');
    expect(canon('(a xor b) and c')).toBe('(a xor b) and c');
    expect(canon('((a))')).toBe('a');
  });

  it('prints lists, ranges, CIDRs, named lists and calls', () => {
    expect(canon('ip.src in { 10.0.0.0/8  1.1.1.1..1.1.1.9 2001:0db8::/32 }')).toBe(
      'ip.src in {10.0.0.0/8 1.1.1.1..1.1.1.9 2001:db8::/32}',
    );
    expect(canon('p in {80 443 8000..8009}')).toBe('p in {80 443 8000..8009}');
    expect(canon('ip.src in $office')).toBe('ip.src in $office');
    expect(canon('ip.src in 10.0.0.0/8')).toBe('ip.src in {10.0.0.0/8}');
    expect(canon('any( lower( h[*] )[*]=="a" )')).toBe('any(lower(h[*])[*] eq "a")');
    expect(canon('h["a b"][0] eq "x"')).toBe('h["a b"][0] eq "x"');
  });

  it('keeps raw strings raw and escapes quoted strings', () => {
    expect(canon('x matches r#"a"b"#')).toBe('x matches r#"a"b"#');
    expect(canon('x eq "a\\"b\\\\c\\x00\\x7f"')).toBe('x eq "a\\"b\\\\c\\x00\\x7f"');
    expect(canon('x eq "caf\\xc3\\xa9"')).toBe('x eq "café"');
    expect(canon('x eq "\\xff"')).toBe('x eq "\\xff"');
    expect(canon('x matches "^a\\.b\\"c$"')).toBe('x matches "^a\\.b\\"c$"');
    expect(printString('a"b', -1, true)).toBe('"a\\"b"');
    expect(printString('a\\"', -1, true)).toBe('r#"a\\""#');
  });
});
