// normalizePathWin: backslashes to slashes, then normalizePath. Example: t:none,t:normalizePathWin
import type { TransformationDef } from '../types.ts';
import { normalizeSlashPath } from './normalize-path.ts';

export const normalizePathWin: TransformationDef = {
  name: 'normalizePathWin',
  transform(input) {
    const slashed = input.indexOf('\\') < 0 ? input : input.replaceAll('\\', '/');
    const out = normalizeSlashPath(slashed);
    return out === input ? input : out;
  },
};
