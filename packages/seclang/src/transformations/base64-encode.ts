// base64Encode: bytes to base64. Example: t:none,t:base64Encode
import type { TransformationDef } from '../types.ts';

export const base64Encode: TransformationDef = {
  name: 'base64Encode',
  transform: (input) => Buffer.from(input, 'latin1').toString('base64'),
};
