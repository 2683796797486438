// hexDecode: pairs of hex digits to bytes. Example: t:none,t:hexDecode
import type { TransformationDef } from '../types.ts';

export const hexDecode: TransformationDef = {
  name: 'hexDecode',
  transform: (input) => Buffer.from(input, 'hex').toString('latin1'),
};
