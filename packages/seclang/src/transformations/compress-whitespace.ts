// compressWhitespace: each run of whitespace (C-locale and NBSP) becomes one space.
// Example: t:none,t:compressWhitespace
import type { TransformationDef } from '../types.ts';

export const compressWhitespace: TransformationDef = {
  name: 'compressWhitespace',
  transform(input) {
    if (!/[\t\n\v\f\r\xa0]| {2}/.test(input)) return input;
    return input.replace(/[\t\n\v\f\r \xa0]+/g, ' ');
  },
};
