import { describe, expect, it } from 'vitest';
import { IpAddress } from './ip.ts';
import { bytesList, intList, ipList } from './list-matcher.ts';

const ip = (s: string) => IpAddress.parse(s) as IpAddress;

describe('list matchers', () => {
  it('merges integer ranges and searches them', () => {
    const small = intList([
      [1, 3],
      [2, 5],
      [10, 10],
    ]);
    expect([0, 1, 5, 6, 10, 11].map((n) => small.includes(n))).toEqual([
      false,
      true,
      true,
      false,
      true,
      false,
    ]);
    const big = intList(Array.from({ length: 100 }, (_, i): [number, number] => [i * 10, i * 10 + 2]));
    expect([0, 2, 3, 990, 992, 993].map((n) => big.includes(n))).toEqual([
      true,
      true,
      false,
      true,
      true,
      false,
    ]);
  });

  it('keeps IPv4 and IPv6 apart', () => {
    const list = ipList([
      [ip('10.0.0.0'), ip('10.255.255.255')],
      [ip('2001:db8::'), ip('2001:db8::ffff')],
    ]);
    expect(list.includes(ip('10.1.1.1'))).toBe(true);
    expect(list.includes(ip('11.0.0.0'))).toBe(false);
    expect(list.includes(ip('2001:db8::1'))).toBe(true);
    expect(list.includes(ip('::a00:1'))).toBe(false);
  });

  it('matches bytes exactly', () => {
    const list = bytesList(['a', 'B']);
    expect(list.includes('a')).toBe(true);
    expect(list.includes('b')).toBe(false);
  });
});
