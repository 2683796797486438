// ipMatch: the input is an IPv4/IPv6 address inside one of the listed addresses or CIDR blocks.
// Argument: `127.0.0.1,::1,10.0.0.0/8`. Example: SecRule REMOTE_ADDR "@ipMatch 127.0.0.1" "id:1"
import { isIPv4, isIPv6 } from 'node:net';
import { RuleCompileError } from '../errors.ts';
import type { OperatorDef, OperatorFn } from '../types.ts';

/** An address as 8 16-bit groups (IPv4 mapped into ::ffff:0:0/96), or undefined. */
export function ipGroups(ip: string): number[] | undefined {
  if (isIPv4(ip)) {
    const [a, b, c, d] = ip.split('.').map(Number) as [number, number, number, number];
    return [0, 0, 0, 0, 0, 0xffff, (a << 8) | b, (c << 8) | d];
  }
  if (!isIPv6(ip)) return undefined;
  let text = ip;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const g = ipGroups(v4[1]!)!;
    text = `${text.slice(0, v4.index)}${g[6]!.toString(16)}:${g[7]!.toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return groups.map((g) => Number.parseInt(g || '0', 16));
}

interface Block {
  groups: number[];
  /** Prefix length in bits over the 128-bit form. */
  bits: number;
}

function inBlock(ip: number[], b: Block): boolean {
  let bits = b.bits;
  for (let i = 0; i < 8 && bits > 0; i++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if ((ip[i]! & mask) !== (b.groups[i]! & mask)) return false;
  }
  return true;
}

export function compileIpList(list: string[]): OperatorFn {
  const blocks: Block[] = list.map((item) => {
    const [addr, prefix] = item.trim().split('/') as [string, string | undefined];
    const groups = ipGroups(addr);
    if (!groups) throw new RuleCompileError(`bad IP address "${item}"`);
    const width = isIPv4(addr) ? 32 : 128;
    const p = prefix === undefined ? width : Number(prefix);
    if (!Number.isInteger(p) || p < 0 || p > width) throw new RuleCompileError(`bad prefix in "${item}"`);
    return { groups, bits: p + 128 - width };
  });
  const cache = new Map<string, boolean>();
  return (_tx, input) => {
    const hit = cache.get(input);
    if (hit !== undefined) return hit;
    const ip = ipGroups(input.trim());
    const result = ip !== undefined && blocks.some((b) => inBlock(ip, b));
    if (cache.size > 1000) cache.clear();
    cache.set(input, result);
    return result;
  };
}

export const ipMatch: OperatorDef = {
  name: 'ipMatch',
  compile: (arg) => compileIpList(arg.split(',').filter((s) => s.trim().length > 0)),
};
