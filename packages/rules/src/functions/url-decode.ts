// url_decode(source Bytes field, options? "r" | "u" | "ur") → Bytes: `%HH` and `+` decoded;
// "r" decodes repeatedly until nothing changes, "u" also decodes `%uHHHH` to UTF-8.
// Example: any(url_decode(http.request.uri.args.values[*])[*] contains "<script")

import { reasons } from '../errors.ts';
import { Bytes } from '../types.ts';
import { utf8ToBytes } from '../values/bytes.ts';
import type { FunctionDef } from './definition.ts';
import { expectField, expectLiteral, expectType } from './helpers.ts';

const MAX_ROUNDS = 16;

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/** One decoding pass over bytes; invalid escapes are kept as they are. */
export function urlDecodeOnce(s: string, unicode: boolean): string {
  if (s.indexOf('%') === -1 && s.indexOf('+') === -1) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 43) {
      out += ' ';
      continue;
    }
    if (c === 37) {
      const h = hexValue(s.charCodeAt(i + 1));
      const l = hexValue(s.charCodeAt(i + 2));
      if (h >= 0 && l >= 0) {
        out += String.fromCharCode(h * 16 + l);
        i += 2;
        continue;
      }
      if (unicode && (s[i + 1] === 'u' || s[i + 1] === 'U')) {
        const digits = s.slice(i + 2, i + 6);
        if (/^[0-9A-Fa-f]{4}$/.test(digits)) {
          out += utf8ToBytes(String.fromCharCode(Number.parseInt(digits, 16)));
          i += 5;
          continue;
        }
      }
    }
    out += s[i];
  }
  return out;
}

export const urlDecode: FunctionDef = {
  name: 'url_decode',
  summary: 'url_decode(source: Bytes field, options?: "r" | "u" | "ur") → Bytes: percent-decoded',
  minArgs: 1,
  maxArgs: 2,
  check(args, fail) {
    expectType(args, 0, Bytes, fail);
    expectField(args, 0, fail);
    if (args.length > 1) {
      expectType(args, 1, Bytes, fail);
      const opts = expectLiteral(args, 1, fail);
      if (typeof opts !== 'string' || !/^[ru]{0,2}$/.test(opts) || new Set(opts).size !== opts.length) {
        fail(1, reasons.argumentValue(1, 'options are "r" (recursive), "u" (%u escapes) or both'));
      }
    }
    return Bytes;
  },
  compile([a, b]) {
    const source = a!.evaluate;
    const opts = typeof b?.literal === 'string' ? b.literal : '';
    const recursive = opts.includes('r');
    const unicode = opts.includes('u');
    return (ctx) => {
      const v = source(ctx) as string | undefined;
      if (v === undefined) return undefined;
      let out = urlDecodeOnce(v, unicode);
      for (let round = 1; recursive && round < MAX_ROUNDS; round++) {
        const next = urlDecodeOnce(out, unicode);
        if (next === out) break;
        out = next;
      }
      return out;
    };
  },
};
