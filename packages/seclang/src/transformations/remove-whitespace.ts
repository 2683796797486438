// removeWhitespace: drops C-locale whitespace and NBSP (0xA0). Example: t:none,t:removeWhitespace
import type { TransformationDef } from '../types.ts';

const WS = /[\t\n\v\f\r \xa0]/;

export const removeWhitespace: TransformationDef = {
  name: 'removeWhitespace',
  transform: (input) => (WS.test(input) ? input.replace(/[\t\n\v\f\r \xa0]+/g, '') : input),
};
