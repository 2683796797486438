// Set membership for `in {…}` and `in $list`: a hash set for bytes, merged sorted ranges with
// binary search for integers and IP addresses (IPv4 and IPv6 kept apart).

import type { ListItem } from '../ast.ts';
import { Bytes, Int, Ip, type Type, typeName } from '../types.ts';
import { IpAddress } from './ip.ts';

export interface ListMatcher {
  readonly type: Type;
  includes(value: unknown): boolean;
}

type Range<T> = [T, T];

function merge(ranges: Range<number>[]): Range<number>[] {
  ranges.sort((a, b) => a[0] - b[0]);
  const out: Range<number>[] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1] + 1) {
      if (r[1] > last[1]) last[1] = r[1];
    } else {
      out.push([r[0], r[1]]);
    }
  }
  return out;
}

function mergeBig(ranges: Range<bigint>[]): Range<bigint>[] {
  ranges.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const out: Range<bigint>[] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1] + 1n) {
      if (r[1] > last[1]) last[1] = r[1];
    } else {
      out.push([r[0], r[1]]);
    }
  }
  return out;
}

function inRanges<T extends number | bigint>(ranges: readonly Range<T>[], v: T): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = ranges[mid] as Range<T>;
    if (v < r[0]) hi = mid - 1;
    else if (v > r[1]) lo = mid + 1;
    else return true;
  }
  return false;
}

export function bytesList(values: Iterable<string>): ListMatcher {
  const set = new Set(values);
  if (set.size <= 8) {
    // A few comparisons beat hashing the value.
    const items = [...set];
    return {
      type: Bytes,
      includes(v) {
        for (let i = 0; i < items.length; i++) if (items[i] === v) return true;
        return false;
      },
    };
  }
  return { type: Bytes, includes: (v) => set.has(v as string) };
}

export function intList(ranges: Range<number>[]): ListMatcher {
  const merged = merge(ranges);
  if (merged.length <= 8) {
    const flat = merged.flat();
    return {
      type: Int,
      includes(v) {
        for (let i = 0; i < flat.length; i += 2) {
          if ((v as number) >= (flat[i] as number) && (v as number) <= (flat[i + 1] as number)) return true;
        }
        return false;
      },
    };
  }
  return { type: Int, includes: (v) => inRanges(merged, v as number) };
}

export function ipList(ranges: readonly Range<IpAddress>[]): ListMatcher {
  const v4: Range<number>[] = [];
  const v6: Range<bigint>[] = [];
  for (const [from, to] of ranges) {
    if (from.version === 4) v4.push([from.v4, to.v4]);
    else v6.push([from.v6, to.v6]);
  }
  const m4 = merge(v4);
  const m6 = mergeBig(v6);
  return {
    type: Ip,
    includes(v) {
      const ip = v as IpAddress;
      return ip.version === 4 ? inRanges(m4, ip.v4) : inRanges(m6, ip.v6);
    },
  };
}

/** The matcher for checked inline-list items of `type`. */
export function listFromItems(type: Type, items: readonly ListItem[]): ListMatcher {
  switch (type.kind) {
    case 'Bytes':
      return bytesList(items.map((i) => (i.kind === 'string' ? i.value : '')));
    case 'Int':
      return intList(
        items.map(
          (i): Range<number> =>
            i.kind === 'int' ? [i.value, i.value] : i.kind === 'int_range' ? [i.from, i.to] : [1, 0],
        ),
      );
    case 'Ip':
      return ipList(items.map(ipItemRange));
    default:
      throw new TypeError(`no list matcher for type ${typeName(type)}`);
  }
}

/** The first and last address an IP list item covers. */
export function ipItemRange(item: ListItem): Range<IpAddress> {
  const parse = (s: string) => IpAddress.parse(s) ?? IpAddress.v4(0);
  switch (item.kind) {
    case 'ip': {
      const ip = parse(item.address);
      return [ip, ip];
    }
    case 'ip_range':
      return [parse(item.from), parse(item.to)];
    case 'cidr': {
      const ip = parse(item.address);
      return [ip.mask(item.bits), ip.lastInNetwork(item.bits)];
    }
    default:
      throw new TypeError(`not an IP list item: ${item.kind}`);
  }
}
