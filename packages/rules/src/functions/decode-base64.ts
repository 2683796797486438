// decode_base64(source Bytes field) → Bytes: the decoded bytes (standard or URL-safe alphabet,
// padding optional); missing when the input is not Base64.
// Example: any(decode_base64(http.request.headers["client_id"][*])[*] eq "123abc")

import { Bytes } from '../types.ts';
import type { FunctionDef } from './definition.ts';
import { expectField, expectType } from './helpers.ts';

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

export const decodeBase64: FunctionDef = {
  name: 'decode_base64',
  summary: 'decode_base64(source: Bytes field) → Bytes',
  minArgs: 1,
  maxArgs: 1,
  check(args, fail) {
    expectType(args, 0, Bytes, fail);
    expectField(args, 0, fail);
    return Bytes;
  },
  compile([a]) {
    const source = a!.evaluate;
    return (ctx) => {
      const v = source(ctx) as string | undefined;
      if (v === undefined || !BASE64.test(v) || v.replace(/=+$/, '').length % 4 === 1) return undefined;
      return Buffer.from(v, 'base64').toString('latin1');
    };
  },
};
