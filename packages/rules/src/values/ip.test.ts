import { describe, expect, it } from 'vitest';
import { IpAddress } from './ip.ts';

describe('IpAddress', () => {
  it('parses and prints IPv4 and IPv6 canonically', () => {
    expect(IpAddress.parse('192.0.2.1')?.toString()).toBe('192.0.2.1');
    expect(IpAddress.parse('2001:0DB8:0000:0000:0000:0000:0000:0001')?.toString()).toBe('2001:db8::1');
    expect(IpAddress.parse('::')?.toString()).toBe('::');
    expect(IpAddress.parse('::1')?.toString()).toBe('::1');
    expect(IpAddress.parse('1::')?.toString()).toBe('1::');
    expect(IpAddress.parse('1:0:0:2:0:0:0:3')?.toString()).toBe('1:0:0:2::3');
    expect(IpAddress.parse('1:0:2:3:4:5:6:7')?.toString()).toBe('1:0:2:3:4:5:6:7');
    expect(IpAddress.parse('::ffff:192.0.2.1')?.toString()).toBe('::ffff:c000:201');
  });

  it('refuses malformed addresses', () => {
    for (const bad of [
      '1.2.3',
      '1.2.3.4.5',
      '256.1.1.1',
      '01.1.1.1',
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      ':::',
      'g::1',
      '1.2.3.4::',
    ]) {
      expect(IpAddress.parse(bad), bad).toBeUndefined();
    }
  });

  it('compares within a family only', () => {
    const a = IpAddress.parse('10.0.0.1') as IpAddress;
    const b = IpAddress.parse('10.0.0.2') as IpAddress;
    const c = IpAddress.parse('::1') as IpAddress;
    expect(a.compare(b)).toBe(-1);
    expect(b.compare(a)).toBe(1);
    expect(a.compare(c)).toBeUndefined();
    expect(a.equals(IpAddress.parse('10.0.0.1') as IpAddress)).toBe(true);
  });

  it('masks networks', () => {
    expect(IpAddress.parse('113.10.0.2')?.mask(24).toString()).toBe('113.10.0.0');
    expect(IpAddress.parse('2001:0000:130F:0000:0000:09C0:876A:130B')?.mask(24).toString()).toBe('2001::');
    expect(IpAddress.parse('10.1.2.3')?.lastInNetwork(8).toString()).toBe('10.255.255.255');
    expect(IpAddress.parse('10.1.2.3')?.mask(0).toString()).toBe('0.0.0.0');
    expect(IpAddress.parse('10.1.2.3')?.lastInNetwork(32).toString()).toBe('10.1.2.3');
  });
});
