// IP addresses: one type for IPv4 and IPv6 (wirefilter's `Ip`). IPv4 keeps a uint32, IPv6 a
// 128-bit bigint; addresses of different families never compare equal or ordered.

export class IpAddress {
  private constructor(
    readonly version: 4 | 6,
    /** The address as uint32 (IPv4 only, else 0). */
    readonly v4: number,
    /** The address as a 128-bit integer (IPv6 only, else 0n). */
    readonly v6: bigint,
  ) {}

  static v4(n: number): IpAddress {
    return new IpAddress(4, n >>> 0, 0n);
  }

  static v6(n: bigint): IpAddress {
    return new IpAddress(6, 0, BigInt.asUintN(128, n));
  }

  /** Parses dotted IPv4 or RFC 4291 IPv6 text; undefined when invalid. */
  static parse(text: string): IpAddress | undefined {
    if (text.includes(':')) {
      const n = parseIpv6(text);
      return n === undefined ? undefined : IpAddress.v6(n);
    }
    const n = parseIpv4(text);
    return n === undefined ? undefined : IpAddress.v4(n);
  }

  equals(other: IpAddress): boolean {
    return this.version === other.version && this.v4 === other.v4 && this.v6 === other.v6;
  }

  /** -1, 0, 1, or undefined across families. */
  compare(other: IpAddress): number | undefined {
    if (this.version !== other.version) return undefined;
    if (this.version === 4) return this.v4 < other.v4 ? -1 : this.v4 > other.v4 ? 1 : 0;
    return this.v6 < other.v6 ? -1 : this.v6 > other.v6 ? 1 : 0;
  }

  /** Canonical text: dotted IPv4; RFC 5952 IPv6 (lowercase, longest zero run compressed). */
  toString(): string {
    if (this.version === 4) return formatIpv4(this.v4);
    return formatIpv6(this.v6);
  }

  /** The network address: the first `bits` bits kept, the rest zeroed. */
  mask(bits: number): IpAddress {
    if (this.version === 4) {
      const m = bits <= 0 ? 0 : bits >= 32 ? 0xffffffff : (0xffffffff << (32 - bits)) >>> 0;
      return IpAddress.v4((this.v4 & m) >>> 0);
    }
    const b = BigInt(Math.max(0, Math.min(128, bits)));
    const m = ((1n << b) - 1n) << (128n - b);
    return IpAddress.v6(this.v6 & m);
  }

  /** The last address of the network of `bits` bits. */
  lastInNetwork(bits: number): IpAddress {
    if (this.version === 4) {
      const host = bits >= 32 ? 0 : bits <= 0 ? 0xffffffff : 0xffffffff >>> bits;
      return IpAddress.v4((this.mask(bits).v4 | host) >>> 0);
    }
    const b = BigInt(Math.max(0, Math.min(128, bits)));
    const host = (1n << (128n - b)) - 1n;
    return IpAddress.v6(this.mask(bits).v6 | host);
  }
}

/** Dotted-quad IPv4 (four decimal parts 0–255, no leading zeros) as a uint32. */
export function parseIpv4(text: string): number | undefined {
  let n = 0;
  let parts = 0;
  let i = 0;
  while (i <= text.length) {
    const start = i;
    let part = 0;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57) break;
      part = part * 10 + (c - 48);
      i++;
    }
    const digits = i - start;
    if (digits === 0 || digits > 3 || part > 255 || (digits > 1 && text.charCodeAt(start) === 48)) {
      return undefined;
    }
    n = n * 256 + part;
    parts++;
    if (i === text.length) break;
    if (text.charCodeAt(i) !== 46 || parts === 4) return undefined;
    i++;
  }
  return parts === 4 ? n : undefined;
}

function parseIpv6(text: string): bigint | undefined {
  if (!/^[0-9A-Fa-f:.]+$/.test(text)) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parseGroups = (s: string, allowV4Tail: boolean): number[] | undefined => {
    if (s === '') return [];
    const groups = s.split(':');
    const out: number[] = [];
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i] ?? '';
      if (allowV4Tail && i === groups.length - 1 && g.includes('.')) {
        const v4 = parseIpv4(g);
        if (v4 === undefined) return undefined;
        out.push(v4 >>> 16, v4 & 0xffff);
      } else {
        if (!/^[0-9A-Fa-f]{1,4}$/.test(g)) return undefined;
        out.push(Number.parseInt(g, 16));
      }
    }
    return out;
  };
  let groups: number[];
  if (halves.length === 2) {
    const head = parseGroups(halves[0] ?? '', false);
    const tail = parseGroups(halves[1] ?? '', true);
    if (!head || !tail || head.length + tail.length > 7) return undefined;
    groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  } else {
    const all = parseGroups(text, true);
    if (all?.length !== 8) return undefined;
    groups = all;
  }
  let n = 0n;
  for (const g of groups) n = (n << 16n) | BigInt(g);
  return n;
}

function formatIpv4(n: number): string {
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

function formatIpv6(n: bigint): string {
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((n >> BigInt(i * 16)) & 0xffffn));
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (g: number[]) => g.map((x) => x.toString(16)).join(':');
  if (bestStart === -1) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLen))}`;
}
