// ipMatch: the input is an IPv4/IPv6 address inside one of the listed addresses or CIDR blocks.
// Argument: `127.0.0.1,::1,10.0.0.0/8`. Example: SecRule REMOTE_ADDR "@ipMatch 127.0.0.1" "id:1"
import { isIPv4, isIPv6 } from 'node:net';
import { RuleCompileError } from '../errors.ts';
import type { OperatorDef, OperatorFn } from '../types.ts';

function ipBits(ip: string): bigint | undefined {
  if (isIPv4(ip)) return ip.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
  if (!isIPv6(ip)) return undefined;
  let text = ip;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const b = ipBits(v4[1]!)!;
    text = `${text.slice(0, v4.index)}${(b >> 16n).toString(16)}:${(b & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(Number.parseInt(g || '0', 16)), 0n);
}

interface Block {
  v6: boolean;
  base: bigint;
  mask: bigint;
}

export function compileIpList(list: string[]): OperatorFn {
  const blocks: Block[] = list.map((item) => {
    const [addr, prefix] = item.trim().split('/') as [string, string | undefined];
    const base = ipBits(addr);
    if (base === undefined) throw new RuleCompileError(`bad IP address "${item}"`);
    const v6 = !isIPv4(addr);
    const width = v6 ? 128n : 32n;
    const bits = prefix === undefined ? width : BigInt(Number(prefix));
    const mask = ((1n << bits) - 1n) << (width - bits);
    return { v6, base: base & mask, mask };
  });
  return (_tx, input) => {
    const ip = ipBits(input.trim());
    if (ip === undefined) return false;
    const v6 = !isIPv4(input.trim());
    return blocks.some((b) => b.v6 === v6 && (ip & b.mask) === b.base);
  };
}

export const ipMatch: OperatorDef = {
  name: 'ipMatch',
  compile: (arg) => compileIpList(arg.split(',').filter((s) => s.trim().length > 0)),
};
