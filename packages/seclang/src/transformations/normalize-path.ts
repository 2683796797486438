// normalizePath (alias normalisePath): removes `./` segments and repeated slashes and resolves
// `../` against earlier segments. Example: t:none,t:normalizePath
import type { TransformationDef } from '../types.ts';

export function normalizeSlashPath(input: string): string {
  if (input.indexOf('/') < 0 && input !== '.' && input !== '..') return input;
  const absolute = input.startsWith('/');
  const trailing = /\/\.{0,2}$/.test(input) && input.length > 1;
  const out: string[] = [];
  for (const seg of input.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
      continue;
    }
    out.push(seg);
  }
  let result = (absolute ? '/' : '') + out.join('/');
  if (trailing && out.length > 0) result += '/';
  return result === input ? input : result;
}

export const normalizePath: TransformationDef = {
  name: 'normalizePath',
  transform: normalizeSlashPath,
};

export const normalisePath: TransformationDef = {
  name: 'normalisePath',
  transform: normalizeSlashPath,
};
