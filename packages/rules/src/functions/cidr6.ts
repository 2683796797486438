// cidr6(address Ip field, ipv6_bits Int 1..128) → Ip: the IPv6 network address; IPv4 unchanged.
// Example: cidr6(ip.src, 64) == 2001:db8::

import { Int, Ip } from '../types.ts';
import type { IpAddress } from '../values/ip.ts';
import type { FunctionDef } from './definition.ts';
import { expectField, expectIntLiteral, expectType } from './helpers.ts';

export const cidr6: FunctionDef = {
  name: 'cidr6',
  summary: 'cidr6(address: Ip field, ipv6_bits: 1..128) → Ip: the IPv6 network address (IPv4 unchanged)',
  minArgs: 2,
  maxArgs: 2,
  check(args, fail) {
    expectType(args, 0, Ip, fail);
    expectField(args, 0, fail);
    expectType(args, 1, Int, fail);
    expectIntLiteral(args, 1, 1, 128, fail);
    return Ip;
  },
  compile([a, b]) {
    const address = a!.evaluate;
    const bits = b!.literal as number;
    return (ctx) => {
      const ip = address(ctx) as IpAddress | undefined;
      return ip && ip.version === 6 ? ip.mask(bits) : ip;
    };
  },
};
