// trim, trimLeft, trimRight: remove C-locale whitespace at either or both ends.
// Example: t:none,t:trim
import type { TransformationDef } from '../types.ts';

export const trim: TransformationDef = {
  name: 'trim',
  transform: (input) => input.replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g, ''),
};

export const trimLeft: TransformationDef = {
  name: 'trimLeft',
  transform: (input) => input.replace(/^[\t\n\v\f\r ]+/, ''),
};

export const trimRight: TransformationDef = {
  name: 'trimRight',
  transform: (input) => input.replace(/[\t\n\v\f\r ]+$/, ''),
};
