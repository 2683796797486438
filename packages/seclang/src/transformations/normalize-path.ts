// normalizePath (alias normalisePath): removes `./` segments and repeated slashes and resolves
// `../` against earlier segments. Example: t:none,t:normalizePath
import type { TransformationDef } from '../types.ts';

const NEEDS_WORK = /\/\/|(?:^|\/)\.\.?(?:\/|$)/;
const SLASH = 47;
const DOT = 46;

function isDotDot(input: string, start: number, end: number): boolean {
  return end - start === 2 && input.charCodeAt(start) === DOT && input.charCodeAt(start + 1) === DOT;
}

export function normalizeSlashPath(input: string): string {
  if (input.indexOf('/') < 0 && input !== '.' && input !== '..') return input;
  // Nothing to remove (no empty, `.` or `..` segment but the leading and trailing ones a path keeps):
  // the input as it is, without splitting it.
  if (!NEEDS_WORK.test(input)) return input;
  const absolute = input.charCodeAt(0) === SLASH;
  const trailing = /\/\.{0,2}$/.test(input) && input.length > 1;
  // The kept segments as [start, end) offsets into the input, on a stack of typed arrays: no string per
  // segment and no growing array (a 128 KB value of 65,000 segments cost ~4 ms split into strings, ~8 ms
  // pushed onto arrays; ~2.6 ms this way).
  let segments = 1;
  for (let i = input.indexOf('/'); i >= 0; i = input.indexOf('/', i + 1)) segments++;
  const starts = new Int32Array(segments);
  const ends = new Int32Array(segments);
  let kept = 0;
  for (let i = 0; i <= input.length; ) {
    let j = input.indexOf('/', i);
    if (j < 0) j = input.length;
    const length = j - i;
    if (length === 0 || (length === 1 && input.charCodeAt(i) === DOT)) {
      // an empty or `.` segment: dropped
    } else if (isDotDot(input, i, j)) {
      if (kept > 0 && !isDotDot(input, starts[kept - 1] as number, ends[kept - 1] as number)) kept--;
      else if (!absolute) {
        starts[kept] = i;
        ends[kept++] = j;
      }
    } else {
      starts[kept] = i;
      ends[kept++] = j;
    }
    i = j + 1;
  }
  // Segments that follow each other in the input with one `/` between them are copied as one slice.
  const parts: string[] = [];
  let runStart = -1;
  let runEnd = -1;
  for (let k = 0; k < kept; k++) {
    const start = starts[k] as number;
    if (runStart >= 0 && start === runEnd + 1) {
      runEnd = ends[k] as number;
      continue;
    }
    if (runStart >= 0) parts.push(input.slice(runStart, runEnd));
    runStart = start;
    runEnd = ends[k] as number;
  }
  if (runStart >= 0) parts.push(input.slice(runStart, runEnd));
  let result = (absolute ? '/' : '') + parts.join('/');
  if (trailing && kept > 0) result += '/';
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
