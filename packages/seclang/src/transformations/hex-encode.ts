// hexEncode: each byte as two lower-case hex digits. Example: t:none,t:sha1,t:hexEncode
import type { TransformationDef } from '../types.ts';

export const hexEncode: TransformationDef = {
  name: 'hexEncode',
  transform: (input) => Buffer.from(input, 'latin1').toString('hex'),
};
