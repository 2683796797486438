// replaceComments: each C comment `/* … */` (an unterminated one runs to the end) becomes one
// space. Example: t:none,t:replaceComments
import type { TransformationDef } from '../types.ts';

export const replaceComments: TransformationDef = {
  name: 'replaceComments',
  transform(input) {
    if (input.indexOf('/*') < 0) return input;
    return input.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, ' ');
  },
};
