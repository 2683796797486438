import { readFileSync } from 'node:fs';

/**
 * An IP → AS number table read from the `@ip-location-db/asn` CSV files (`start,end,asn,name`, addresses
 * as decimal numbers, ranges sorted and disjoint): IPv4 ranges in 32-bit arrays; IPv6 ranges by their
 * upper 64 bits (routed prefixes are /64 or shorter), found by binary search.
 */
export class AsnTable {
  private constructor(
    private readonly v4: { start: Uint32Array; end: Uint32Array; asn: Uint32Array },
    private readonly v6: { start: BigUint64Array; end: BigUint64Array; asn: Uint32Array },
    private readonly names: ReadonlyMap<number, string>,
  ) {}

  static load(ipv4File: string, ipv6File: string): AsnTable {
    const names = new Map<number, string>();
    const v4 = readRanges(ipv4File, (n) => Number(n), names);
    const v6 = readRanges(ipv6File, (n) => BigInt(n) >> 64n, names);
    return new AsnTable(
      { start: Uint32Array.from(v4.start), end: Uint32Array.from(v4.end), asn: Uint32Array.from(v4.asn) },
      {
        start: BigUint64Array.from(v6.start),
        end: BigUint64Array.from(v6.end),
        asn: Uint32Array.from(v6.asn),
      },
      names,
    );
  }

  get size(): number {
    return this.v4.asn.length + this.v6.asn.length;
  }

  /** The AS number of an IPv4 address given as a 32-bit number. */
  lookupV4(address: number): number | undefined {
    return find(this.v4, address);
  }

  /** The name the table gives an AS number (its organisation), if any. */
  nameOf(asn: number): string | undefined {
    return this.names.get(asn);
  }

  /** The AS number of an IPv6 address given by its upper 64 bits. */
  lookupV6(upper: bigint): number | undefined {
    return find(this.v6, upper);
  }
}

interface Ranges<T> {
  start: ArrayLike<T>;
  end: ArrayLike<T>;
  asn: Uint32Array;
}

/** The last range starting at or before `x`, if it also ends at or after it. */
function find<T extends number | bigint>(r: Ranges<T>, x: T): number | undefined {
  let lo = 0;
  let hi = r.asn.length - 1;
  let at = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if ((r.start[mid] as T) <= x) {
      at = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  if (at < 0 || (r.end[at] as T) < x) return undefined;
  return r.asn[at];
}

/** A CSV field: quoted ("" inside for a quote) or bare; the file is read as latin1, its names are UTF-8. */
function csvName(field: string): string {
  const bare = field.startsWith('"')
    ? field.slice(1, field.endsWith('"') ? -1 : undefined).replaceAll('""', '"')
    : field;
  return /^[\x00-\x7f]*$/.test(bare) ? bare : Buffer.from(bare, 'latin1').toString('utf8');
}

function readRanges<T>(file: string, parse: (decimal: string) => T, names: Map<number, string>) {
  const text = readFileSync(file, 'latin1');
  const start: T[] = [];
  const end: T[] = [];
  const asn: number[] = [];
  let pos = 0;
  while (pos < text.length) {
    let eol = text.indexOf('\n', pos);
    if (eol < 0) eol = text.length;
    const c1 = text.indexOf(',', pos);
    const c2 = c1 < 0 ? -1 : text.indexOf(',', c1 + 1);
    const c3 = c2 < 0 ? -1 : text.indexOf(',', c2 + 1);
    if (c3 > 0 && c3 < eol) {
      const s = parse(text.slice(pos, c1));
      if (start.length > 0 && s < (start[start.length - 1] as T)) {
        throw new Error(`${file}: ranges are not sorted at byte ${pos}`);
      }
      start.push(s);
      end.push(parse(text.slice(c1 + 1, c2)));
      const number = Number(text.slice(c2 + 1, c3));
      asn.push(number);
      if (!names.has(number)) names.set(number, csvName(text.slice(c3 + 1, eol).trimEnd()));
    }
    pos = eol + 1;
  }
  return { start, end, asn };
}
