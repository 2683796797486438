// Checks (and lightly normalises) a value given for a field against the field's type.

import { RulesContextError } from '../errors.ts';
import { type Type, typeName } from '../types.ts';
import { utf8ToBytes } from './bytes.ts';
import { IpAddress } from './ip.ts';

/** A character that is not a byte. */
const WIDE = /[\u0100-\uffff]/;

function reject(path: string, type: Type, value: unknown): never {
  const got = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  throw new RulesContextError(`${path}: expected a value of type ${typeName(type)}, but got ${got}`);
}

/**
 * Returns the runtime value for `type`: Bytes accept binary strings (text with characters
 * above U+00FF is UTF-8 encoded) and Uint8Array; Ip accepts IpAddress or text; Map accepts
 * Map or a plain object. `undefined` stays missing.
 */
export function coerceValue(type: Type, value: unknown, path: string): unknown {
  if (value === undefined) return undefined;
  switch (type.kind) {
    case 'Bool':
      if (typeof value !== 'boolean') reject(path, type, value);
      return value;
    case 'Int':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) reject(path, type, value);
      return value;
    case 'Bytes':
      if (typeof value === 'string') return WIDE.test(value) ? utf8ToBytes(value) : value;
      if (value instanceof Uint8Array) return Buffer.from(value).toString('latin1');
      return reject(path, type, value);
    case 'Ip': {
      if (value instanceof IpAddress) return value;
      const ip = typeof value === 'string' ? IpAddress.parse(value) : undefined;
      if (!ip) reject(path, type, value);
      return ip;
    }
    case 'Array': {
      if (!Array.isArray(value)) reject(path, type, value);
      const of = type.of;
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const v: unknown = value[i];
        const c = coerceValue(of, v, `${path}[${i}]`);
        if (c === undefined) reject(`${path}[${i}]`, of, v);
        if (c !== v && !out) out = value.slice(0, i);
        if (out) out.push(c);
      }
      return out ?? value;
    }
    case 'Map': {
      const entries: Iterable<[unknown, unknown]> =
        value instanceof Map
          ? value.entries()
          : typeof value === 'object' && value !== null && !Array.isArray(value)
            ? Object.entries(value)
            : reject(path, type, value);
      const out = new Map<string, unknown>();
      for (const [k, v] of entries) {
        if (typeof k !== 'string') throw new RulesContextError(`${path}: map keys must be strings`);
        const c = coerceValue(type.of, v, `${path}[${JSON.stringify(k)}]`);
        if (c === undefined) reject(`${path}[${JSON.stringify(k)}]`, type.of, v);
        out.set(utf8ToBytesIfWide(k), c);
      }
      return out;
    }
  }
}

function utf8ToBytesIfWide(k: string): string {
  return WIDE.test(k) ? utf8ToBytes(k) : k;
}
