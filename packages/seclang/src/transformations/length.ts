// length: the value's length in bytes, as decimal text. Example: t:none,t:length
import type { TransformationDef } from '../types.ts';

export const length: TransformationDef = {
  name: 'length',
  transform: (input) => String(input.length),
};
