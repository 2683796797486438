// removeNulls: drops every NUL byte. Example: t:none,t:removeNulls
import type { TransformationDef } from '../types.ts';

export const removeNulls: TransformationDef = {
  name: 'removeNulls',
  transform: (input) => (input.indexOf('\0') < 0 ? input : input.replaceAll('\0', '')),
};
