// sha1: the binary SHA-1 digest (20 bytes). Example: t:none,t:sha1,t:hexEncode
import { createHash } from 'node:crypto';
import type { TransformationDef } from '../types.ts';

export const sha1: TransformationDef = {
  name: 'sha1',
  transform: (input) => createHash('sha1').update(input, 'latin1').digest().toString('latin1'),
};
