// Transformation registry: name → definition; duplicates refused, lookup case-insensitive.

import type { TransformationDef } from '../types.ts';
import { base64Decode } from './base64-decode.ts';
import { base64Encode } from './base64-encode.ts';
import { cmdLine } from './cmd-line.ts';
import { compressWhitespace } from './compress-whitespace.ts';
import { cssDecode } from './css-decode.ts';
import { hexDecode } from './hex-decode.ts';
import { hexEncode } from './hex-encode.ts';
import { htmlEntityDecode } from './html-entity-decode.ts';
import { jsDecode } from './js-decode.ts';
import { length } from './length.ts';
import { lowercase } from './lowercase.ts';
import { md5 } from './md5.ts';
import { none } from './none.ts';
import { normalisePath, normalizePath } from './normalize-path.ts';
import { normalizePathWin } from './normalize-path-win.ts';
import { removeNulls } from './remove-nulls.ts';
import { removeWhitespace } from './remove-whitespace.ts';
import { replaceComments } from './replace-comments.ts';
import { sha1 } from './sha1.ts';
import { trim, trimLeft, trimRight } from './trim.ts';
import { urlDecode } from './url-decode.ts';
import { urlDecodeUni } from './url-decode-uni.ts';
import { utf8toUnicode } from './utf8-to-unicode.ts';

const registry = new Map<string, TransformationDef>();

export function registerTransformation(def: TransformationDef): void {
  const key = def.name.toLowerCase();
  if (registry.has(key)) throw new Error(`transformation ${def.name} is already registered`);
  registry.set(key, def);
}

export function getTransformation(name: string): TransformationDef | undefined {
  return registry.get(name.toLowerCase());
}

for (const def of [
  base64Decode,
  base64Encode,
  cmdLine,
  compressWhitespace,
  cssDecode,
  hexDecode,
  hexEncode,
  htmlEntityDecode,
  jsDecode,
  length,
  lowercase,
  md5,
  none,
  normalisePath,
  normalizePath,
  normalizePathWin,
  removeNulls,
  removeWhitespace,
  replaceComments,
  sha1,
  trim,
  trimLeft,
  trimRight,
  urlDecode,
  urlDecodeUni,
  utf8toUnicode,
]) {
  registerTransformation(def);
}
