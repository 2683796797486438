import { describe, expect, it } from 'vitest';
import type { Expr } from './ast.ts';
import { defaultLimits } from './limits.ts';
import { parseSyntax } from './parser.ts';

/** The tree without spans, for structural comparison. */
function shape(e: Expr): unknown {
  return JSON.parse(
    JSON.stringify(e, (k, v) =>
      k === 'span' || k === 'opSpan' || k === 'nameSpan' || k === 'keySpan' ? undefined : v,
    ),
  );
}

const p = (text: string) => shape(parseSyntax(text, defaultLimits));

describe('parseSyntax', () => {
  it('parses a comparison with both operator spellings to the same tree', () => {
    const english = p('http.host eq "a"');
    expect(english).toEqual({
      kind: 'compare',
      op: 'eq',
      lhs: { kind: 'field', name: 'http.host' },
      rhs: { kind: 'string', value: 'a', raw: -1 },
    });
    expect(p('http.host == "a"')).toEqual(english);
    for (const [a, b] of [
      ['ne', '!='],
      ['lt', '<'],
      ['le', '<='],
      ['gt', '>'],
      ['ge', '>='],
      ['matches', '~'],
      ['bitwise_and', '&'],
    ]) {
      expect(p(`x ${a} 1`)).toEqual(p(`x ${b} 1`));
    }
    expect(p('a and b')).toEqual(p('a && b'));
    expect(p('a or b')).toEqual(p('a || b'));
    expect(p('a xor b')).toEqual(p('a ^^ b'));
    expect(p('not a')).toEqual(p('! a'));
  });

  it('builds n-ary logical nodes by precedence: not > and > xor > or', () => {
    expect(p('a or b and c xor d')).toEqual({
      kind: 'logical',
      op: 'or',
      items: [
        { kind: 'field', name: 'a' },
        {
          kind: 'logical',
          op: 'xor',
          items: [
            {
              kind: 'logical',
              op: 'and',
              items: [
                { kind: 'field', name: 'b' },
                { kind: 'field', name: 'c' },
              ],
            },
            { kind: 'field', name: 'd' },
          ],
        },
      ],
    });
    expect(p('a and b and c')).toEqual({
      kind: 'logical',
      op: 'and',
      items: ['a', 'b', 'c'].map((name) => ({ kind: 'field', name })),
    });
    expect(p('(a and b) and c')).toEqual({
      kind: 'logical',
      op: 'and',
      items: [
        {
          kind: 'logical',
          op: 'and',
          items: [
            { kind: 'field', name: 'a' },
            { kind: 'field', name: 'b' },
          ],
        },
        { kind: 'field', name: 'c' },
      ],
    });
    expect(p('not a and b')).toEqual({
      kind: 'logical',
      op: 'and',
      items: [
        { kind: 'not', arg: { kind: 'field', name: 'a' } },
        { kind: 'field', name: 'b' },
      ],
    });
  });

  it('keeps English words apart from longer identifiers', () => {
    expect(p('notes')).toEqual({ kind: 'field', name: 'notes' });
    expect(p('android')).toEqual({ kind: 'field', name: 'android' });
    expect(p('x.in eq 1')).toMatchObject({ kind: 'compare', lhs: { name: 'x.in' } });
  });

  it('parses literals: strings, raw strings, integers, IPs, ranges, CIDRs, lists', () => {
    expect(p('x eq r#"a"b"#')).toMatchObject({ rhs: { kind: 'string', value: 'a"b', raw: 1 } });
    expect(p('x eq "\\x41\\102\\\\\\""')).toMatchObject({ rhs: { value: 'AB\\"' } });
    expect(p('x matches "a\\.b\\"c"')).toMatchObject({ rhs: { value: 'a\\.b"c' } });
    expect(p('x eq -12')).toMatchObject({ rhs: { kind: 'int', value: -12 } });
    expect(p('x eq 0x1f')).toMatchObject({ rhs: { kind: 'int', value: 31 } });
    expect(p('x eq 017')).toMatchObject({ rhs: { kind: 'int', value: 15 } });
    expect(p('x eq 2001:DB8:0::1')).toMatchObject({ rhs: { kind: 'ip', address: '2001:db8::1' } });
    expect(p('x in {1..5 7 "a" 10.0.0.0/8 ::1..::5 1.1.1.1}')).toMatchObject({
      rhs: {
        kind: 'list',
        items: [
          { kind: 'int_range', from: 1, to: 5 },
          { kind: 'int', value: 7 },
          { kind: 'string', value: 'a' },
          { kind: 'cidr', address: '10.0.0.0', bits: 8 },
          { kind: 'ip_range', from: '::1', to: '::5' },
          { kind: 'ip', address: '1.1.1.1' },
        ],
      },
    });
    expect(p('x in $office_net')).toMatchObject({ rhs: { kind: 'list_ref', name: 'office_net' } });
    expect(p('x strict wildcard "a*"')).toMatchObject({ op: 'strict_wildcard' });
  });

  it('parses calls, index chains and [*]', () => {
    expect(p('any(lower(h.names[*])[*] == "a")')).toEqual({
      kind: 'call',
      name: 'any',
      args: [
        {
          kind: 'compare',
          op: 'eq',
          lhs: {
            kind: 'index',
            key: { kind: 'each' },
            target: {
              kind: 'call',
              name: 'lower',
              args: [{ kind: 'index', key: { kind: 'each' }, target: { kind: 'field', name: 'h.names' } }],
            },
          },
          rhs: { kind: 'string', value: 'a', raw: -1 },
        },
      ],
    });
    expect(p('h["accept"][0] eq "x"')).toMatchObject({
      lhs: {
        kind: 'index',
        key: { kind: 'position', value: 0 },
        target: { key: { kind: 'key', value: 'accept' } },
      },
    });
    expect(p('f() eq 1')).toMatchObject({ lhs: { kind: 'call', name: 'f', args: [] } });
    expect(p('f("a", 1, -2, x) eq 1')).toMatchObject({
      lhs: {
        args: [
          { kind: 'literal', value: { kind: 'string' } },
          { kind: 'literal', value: { kind: 'int', value: 1 } },
          { kind: 'literal', value: { kind: 'int', value: -2 } },
          { kind: 'field', name: 'x' },
        ],
      },
    });
  });

  it('parses true and false', () => {
    expect(p('true')).toEqual({ kind: 'bool', value: true });
    expect(p('not false')).toEqual({ kind: 'not', arg: { kind: 'bool', value: false } });
  });

  it('keeps spans', () => {
    const e = parseSyntax('  http.host  eq "a"', defaultLimits);
    expect(e.span).toEqual({ start: 2, end: 19 });
    expect(e.kind === 'compare' && e.opSpan).toEqual({ start: 13, end: 15 });
  });
});
