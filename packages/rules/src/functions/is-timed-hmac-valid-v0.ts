// is_timed_hmac_valid_v0(key literal, messageMAC Bytes, ttl Int literal, now Int,
//   separator_length? Int literal, flags? "s") → Bool: messageMAC is
//   <message><separator><10-digit timestamp>-<base64 HMAC-SHA256(key, message + timestamp)>,
//   valid when the MAC matches and the timestamp is at most `ttl` seconds old. Without "s" the
//   Base64 is URL-encoded; with "s" it is URL-safe without padding.
// Example: not is_timed_hmac_valid_v0("secret", http.request.uri, 10800, http.request.timestamp.sec, 8)

import { createHmac, timingSafeEqual } from 'node:crypto';
import { reasons } from '../errors.ts';
import { Bool, Bytes, Int } from '../types.ts';
import type { FunctionDef } from './definition.ts';
import { expectIntLiteral, expectLiteral, expectType } from './helpers.ts';
import { urlDecodeOnce } from './url-decode.ts';

const TOKEN = /^([\s\S]*?)(\d{10})-([\s\S]{43,})$/;

export const isTimedHmacValidV0: FunctionDef = {
  name: 'is_timed_hmac_valid_v0',
  summary: 'is_timed_hmac_valid_v0(key, messageMAC, ttl, now, separator_length?, flags?) → Bool',
  minArgs: 4,
  maxArgs: 6,
  check(args, fail) {
    expectType(args, 0, Bytes, fail);
    expectLiteral(args, 0, fail);
    expectType(args, 1, Bytes, fail);
    expectType(args, 2, Int, fail);
    expectIntLiteral(args, 2, 0, Number.MAX_SAFE_INTEGER, fail);
    expectType(args, 3, Int, fail);
    if (args.length > 4) {
      expectType(args, 4, Int, fail);
      expectIntLiteral(args, 4, 0, 1024, fail);
    }
    if (args.length > 5 && expectLiteral(args, 5, fail) !== 's')
      fail(5, reasons.argumentValue(5, 'the only flag is "s"'));
    return Bool;
  },
  compile([k, m, t, n, s, f]) {
    const key = Buffer.from(k!.literal as string, 'latin1');
    const messageMac = m!.evaluate;
    const ttl = t!.literal as number;
    const now = n!.evaluate;
    const separatorLength = (s?.literal as number | undefined) ?? 0;
    const urlSafe = f?.literal === 's';
    return (ctx) => {
      const token = messageMac(ctx) as string | undefined;
      const time = now(ctx) as number | undefined;
      if (token === undefined || time === undefined) return undefined;
      const parts = TOKEN.exec(token);
      if (!parts) return false;
      const prefix = parts[1] ?? '';
      if (prefix.length <= separatorLength) return false;
      const message = prefix.slice(0, prefix.length - separatorLength);
      const issued = Number(parts[2]);
      if (time < issued || time - issued > ttl) return false;
      const macText = urlSafe ? (parts[3] ?? '') : urlDecodeOnce(parts[3] ?? '', false);
      const given = Buffer.from(macText, urlSafe ? 'base64url' : 'base64');
      const expected = createHmac('sha256', key)
        .update(Buffer.from(message + parts[2], 'latin1'))
        .digest();
      return given.length === expected.length && timingSafeEqual(given, expected);
    };
  },
};
