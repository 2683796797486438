// base64Decode: decodes base64 up to the first character outside the alphabet.
// Example: t:none,t:base64Decode
import type { TransformationDef } from '../types.ts';

export const base64Decode: TransformationDef = {
  name: 'base64Decode',
  transform(input) {
    const m = /^[A-Za-z0-9+/]*/.exec(input);
    return Buffer.from(m ? m[0] : '', 'base64').toString('latin1');
  },
};
