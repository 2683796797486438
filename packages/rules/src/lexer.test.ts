import { describe, expect, it } from 'vitest';
import { SpannedError } from './errors.ts';
import { Lexer } from './lexer.ts';

function str(text: string, mode: 'basic' | 'regex' = 'basic') {
  return new Lexer(text).readString(mode);
}

function err(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof SpannedError) return e.reason;
    throw e;
  }
  return 'no error';
}

describe('Lexer', () => {
  it('reads quoted strings with \\" \\\\ \\xHH and \\OOO escapes', () => {
    expect(str('"a\\"b"').value).toBe('a"b');
    expect(str('"\\\\"').value).toBe('\\');
    expect(str('"\\x2e\\x77"').value).toBe('.w');
    expect(str('"\\101\\060"').value).toBe('A0');
    expect(str('"\\xff"').value).toBe('\xff');
    expect(str('"é"').value).toBe('\xc3\xa9');
    expect(str('"a" rest').span).toEqual({ start: 0, end: 3 });
  });

  it('keeps escapes for regexes, except \\"', () => {
    expect(str('"a\\.b\\"c\\\\"', 'regex').value).toBe('a\\.b"c\\\\');
  });

  it('reads raw strings with up to 255 #', () => {
    expect(str('r"a\\b"').value).toBe('a\\b');
    expect(str('r#"a"b"#').value).toBe('a"b');
    expect(str('r##"a"#b"##').value).toEqual('a"#b');
    expect(str(`r${'#'.repeat(255)}"x"${'#'.repeat(255)}`).raw).toBe(255);
    expect(err(() => str(`r${'#'.repeat(256)}"x"${'#'.repeat(256)}`))).toBe('raw strings take at most 255 #');
  });

  it('reports bad strings', () => {
    expect(err(() => str('"abc'))).toBe('could not find an ending quote');
    expect(err(() => str('"abc\\'))).toBe('could not find an ending quote');
    expect(err(() => str('"\\n"'))).toBe('expected ", xHH or OOO after \\');
    expect(err(() => str('"\\x4"'))).toBe('invalid digit found in string while parsing with radix 16');
    expect(err(() => str('"\\400"'))).toBe(
      'number too large to fit in target type while parsing with radix 8',
    );
    expect(err(() => str('r#"abc"'))).toBe('could not find an ending quote');
  });

  it('reads dotted identifiers and refuses empty segments', () => {
    const lx = new Lexer('http.request.uri.path eq');
    expect(lx.readIdentifier().text).toBe('http.request.uri.path');
    expect(err(() => new Lexer('http..host').readIdentifier())).toBe('expected identifier character');
    expect(err(() => new Lexer('http.').readIdentifier())).toBe('expected identifier character');
  });

  it('tells ! from != and & from &&', () => {
    const lx = new Lexer('!= && & !');
    expect(lx.eatPunct('!')).toBeUndefined();
    expect(lx.eatPunct('!=')).toEqual({ start: 0, end: 2 });
    expect(lx.eatPunct('&')).toBeUndefined();
    expect(lx.eatPunct('&&')).toBeDefined();
    expect(lx.eatPunct('&')).toBeDefined();
    expect(lx.eatPunct('!')).toBeDefined();
    expect(lx.atEnd()).toBe(true);
  });

  it('reads bare literals and knows when an IPv6 address starts with a hex letter', () => {
    expect(new Lexer('fe80::1 ').atBareLiteral(true)).toBe(true);
    expect(new Lexer('fe80 ').atBareLiteral(true)).toBe(false);
    expect(new Lexer('fe80::1').atBareLiteral(false)).toBe(false);
    expect(new Lexer('10.0.0.0/8}').readBare().text).toBe('10.0.0.0/8');
  });
});
