// md5: the binary MD5 digest (16 bytes). Example: t:none,t:md5,t:hexEncode
import { createHash } from 'node:crypto';
import type { TransformationDef } from '../types.ts';

export const md5: TransformationDef = {
  name: 'md5',
  transform: (input) => createHash('md5').update(input, 'latin1').digest().toString('latin1'),
};
