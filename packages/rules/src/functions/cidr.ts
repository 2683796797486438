// cidr(address Ip field, ipv4_bits Int 1..32, ipv6_bits Int 1..128) → Ip: the network address.
// Example: cidr(ip.src, 24, 48) == 192.0.2.0

import { Int, Ip } from '../types.ts';
import type { IpAddress } from '../values/ip.ts';
import type { FunctionDef } from './definition.ts';
import { expectField, expectIntLiteral, expectType } from './helpers.ts';

export const cidr: FunctionDef = {
  name: 'cidr',
  summary: 'cidr(address: Ip field, ipv4_bits: 1..32, ipv6_bits: 1..128) → Ip: the network address',
  minArgs: 3,
  maxArgs: 3,
  check(args, fail) {
    expectType(args, 0, Ip, fail);
    expectField(args, 0, fail);
    expectType(args, 1, Int, fail);
    expectIntLiteral(args, 1, 1, 32, fail);
    expectType(args, 2, Int, fail);
    expectIntLiteral(args, 2, 1, 128, fail);
    return Ip;
  },
  compile([a, b, c]) {
    const address = a!.evaluate;
    const v4 = b!.literal as number;
    const v6 = c!.literal as number;
    return (ctx) => {
      const ip = address(ctx) as IpAddress | undefined;
      return ip?.mask(ip.version === 4 ? v4 : v6);
    };
  },
};
