import { describe, expect, it } from 'vitest';
import { compile } from './compiler.ts';
import { ExecutionContext } from './context.ts';
import { RulesContextError } from './errors.ts';
import { parse } from './parse.ts';
import { Scheme } from './scheme.ts';
import { arrayOf, Bool, Bytes, Int, Ip, mapOf } from './types.ts';
import { IpAddress } from './values/ip.ts';

const scheme = new Scheme({
  fields: { a: Bytes, b: Int, c: Ip, d: Bool, e: arrayOf(Bytes), f: mapOf(arrayOf(Bytes)) },
});

describe('ExecutionContext', () => {
  it('computes a lazily defined field at most once per context', () => {
    let calls = 0;
    const ctx = new ExecutionContext(scheme).define('a', () => {
      calls++;
      return 'x';
    });
    const filter = compile(parse('a eq "x" and a ne "y" and lower(a) eq "x"', scheme));
    expect(filter.execute(ctx)).toBe(true);
    expect(filter.execute(ctx)).toBe(true);
    expect(calls).toBe(1);
  });

  it('never computes fields an evaluation does not reach', () => {
    let calls = 0;
    const ctx = new ExecutionContext(scheme).set('d', false).define('a', () => {
      calls++;
      return 'x';
    });
    expect(compile(parse('d and a eq "x"', scheme)).execute(ctx)).toBe(false);
    expect(calls).toBe(0);
  });

  it('uses the resolver for fields not set', () => {
    const seen: string[] = [];
    const ctx = new ExecutionContext(scheme, {
      resolve: (field) => {
        seen.push(field.name);
        return field.name === 'b' ? 7 : undefined;
      },
    });
    expect(ctx.get('b')).toBe(7);
    expect(ctx.get('b')).toBe(7);
    expect(ctx.get('a')).toBeUndefined();
    expect(seen).toEqual(['b', 'a']);
  });

  it('type-checks values on set and on computation', () => {
    const ctx = new ExecutionContext(scheme);
    expect(() => ctx.set('a', 5)).toThrow(RulesContextError);
    expect(() => ctx.set('a', 5)).toThrow('a: expected a value of type Bytes, but got number');
    expect(() => ctx.set('b', 1.5)).toThrow(RulesContextError);
    expect(() => ctx.set('c', 'not an ip')).toThrow(RulesContextError);
    expect(() => ctx.set('e', ['a', 1])).toThrow('e[1]: expected a value of type Bytes, but got number');
    expect(() => ctx.set('f', { x: 'a' })).toThrow(RulesContextError);
    expect(() => ctx.set('nope', 1)).toThrow('unknown field "nope"');
    ctx.define('b', () => 'seven');
    expect(() => ctx.get('b')).toThrow(RulesContextError);
  });

  it('normalises values: IP text, Uint8Array bytes, wide text to UTF-8, objects to maps', () => {
    const ctx = new ExecutionContext(scheme)
      .set('c', '10.0.0.1')
      .set('a', new Uint8Array([0xc3, 0xa9]))
      .set('f', { k: ['v'] });
    expect(ctx.get('c')).toBeInstanceOf(IpAddress);
    expect(ctx.get('a')).toBe('\xc3\xa9');
    expect(ctx.set('a', '☺').get('a')).toBe('\xe2\x98\xba');
    expect(ctx.get('f')).toEqual(new Map([['k', ['v']]]));
  });

  it('refuses a context built for another scheme', () => {
    const other = new Scheme({ fields: { d: Bool } });
    const filter = compile(parse('d', scheme));
    expect(() => filter.execute(new ExecutionContext(other))).toThrow(RulesContextError);
  });
});

describe('Scheme', () => {
  it('refuses duplicates and bad names', () => {
    expect(() => new Scheme({ fields: { a: Bytes } }).addField('a', Int)).toThrow(/already registered/);
    expect(() => new Scheme({ fields: { lower: Bytes } })).toThrow(/already registered/);
    expect(() => new Scheme({ fields: { and: Bytes } })).toThrow(/invalid field name/);
    expect(() => new Scheme({ fields: { 'a..b': Bytes } })).toThrow(/invalid field name/);
    expect(() => new Scheme({ fields: { a: 'Strin' } })).toThrow(/unknown type/);
    expect(() => new Scheme({ lists: { Office: Ip } })).toThrow(/invalid list name/);
    expect(() => new Scheme({ lists: { office: 'Array(Ip)' } })).toThrow(/lists hold/);
    expect(new Scheme({ fields: { x: 'Map(Array(Bytes))' } }).field('x')?.type).toEqual(
      mapOf(arrayOf(Bytes)),
    );
  });
});
