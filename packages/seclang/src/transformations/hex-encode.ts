// hexEncode: each byte as two lower-case hex digits. Example: t:none,t:sha1,t:hexEncode
import type { TransformationDef } from '../types.ts';

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export const hexEncode: TransformationDef = {
  name: 'hexEncode',
  transform(input) {
    let out = '';
    for (let i = 0; i < input.length; i++) out += HEX[input.charCodeAt(i) & 0xff];
    return out;
  },
};
