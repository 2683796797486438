// Values for named lists (`ip.src in $office_network`): build a matcher once, share it between
// contexts. Entries are written like inline-list items: "192.0.2.0/24", "198.51.100.3..198.51.100.7",
// 8000 or "8000..8009", or any bytes for Bytes lists.

import { RulesContextError, SpannedError } from './errors.ts';
import { parseBareLiteral } from './literals/bare.ts';
import { type Type, typeName } from './types.ts';
import { coerceValue } from './values/coerce.ts';
import { IpAddress } from './values/ip.ts';
import { bytesList, intList, ipList, type ListMatcher } from './values/list-matcher.ts';

function bare(entry: string | number, type: Type) {
  try {
    return parseBareLiteral(String(entry), { start: 0, end: String(entry).length });
  } catch (e) {
    if (e instanceof SpannedError) {
      throw new RulesContextError(`list entry ${JSON.stringify(entry)} (${typeName(type)}): ${e.reason}`);
    }
    throw e;
  }
}

export function createList(type: Type, entries: Iterable<string | number>): ListMatcher {
  const all = [...entries];
  switch (type.kind) {
    case 'Bytes':
      return bytesList(all.map((e, i) => coerceValue(type, String(e), `entry ${i}`) as string));
    case 'Int':
      return intList(
        all.map((entry): [number, number] => {
          const item = bare(entry, type);
          if (item.kind === 'int') return [item.value, item.value];
          if (item.kind === 'int_range') return [item.from, item.to];
          throw new RulesContextError(`list entry ${JSON.stringify(entry)} is not an integer or range`);
        }),
      );
    case 'Ip':
      return ipList(
        all.map((entry): [IpAddress, IpAddress] => {
          const item = bare(entry, type);
          const ip = (s: string) => IpAddress.parse(s) as IpAddress;
          if (item.kind === 'ip') return [ip(item.address), ip(item.address)];
          if (item.kind === 'ip_range') return [ip(item.from), ip(item.to)];
          if (item.kind === 'cidr') {
            const base = ip(item.address);
            return [base.mask(item.bits), base.lastInNetwork(item.bits)];
          }
          throw new RulesContextError(
            `list entry ${JSON.stringify(entry)} is not an IP address, range or CIDR`,
          );
        }),
      );
    default:
      throw new RulesContextError(`lists hold Bytes, Int or Ip, not ${typeName(type)}`);
  }
}
