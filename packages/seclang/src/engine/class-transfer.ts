// What a transformation can do to a value's character classes (regex/prefilter.ts), without
// running it: the classes of the output are within the input's classes plus what the
// transformation's rules add. `urlDecode` adds any class when the input holds a `%` and a space when
// it holds a `+`; `lowercase` adds nothing (classes fold case). A rule's prefilter can then rule out
// a raw value, or a whole target, before any transformation is computed. Each entry is checked
// against its transformation by property tests; a transformation without an entry may produce
// anything.

import { CLASS_OF } from '../regex/prefilter.ts';

interface TransferSpec {
  /** The output has exactly the input's classes (case folding within a class). */
  sameClasses?: boolean;
  /** The output is the input itself when the input holds none of these characters. */
  identityUnless?: string;
  /** Classes the output may hold whatever the input (even when it is empty). */
  always?: string | 'any';
  /** [if the input holds one of these characters, the output may also hold these] */
  rules?: ReadonlyArray<readonly [string | 'any', string | 'any']>;
}

const HEX_LOWER = '0123456789abcdef';

const SPECS: Record<string, TransferSpec> = {
  none: {},
  lowercase: { sameClasses: true },
  removeNulls: { identityUnless: '\0' },
  removeWhitespace: { identityUnless: '\t \xa0' },
  trim: { identityUnless: '\t ' },
  trimLeft: { identityUnless: '\t ' },
  trimRight: { identityUnless: '\t ' },
  normalizePath: { identityUnless: '/.' },
  normalisePath: { identityUnless: '/.' },
  normalizePathWin: { identityUnless: '\\/.', rules: [['\\', '/']] },
  urlDecode: {
    identityUnless: '%+',
    rules: [
      ['%', 'any'],
      ['+', ' '],
    ],
  },
  urlDecodeUni: {
    identityUnless: '%+',
    rules: [
      ['%', 'any'],
      ['+', ' '],
    ],
  },
  htmlEntityDecode: { identityUnless: '&', rules: [['&', 'any']] },
  jsDecode: { identityUnless: '\\', rules: [['\\', 'any']] },
  cssDecode: { identityUnless: '\\', rules: [['\\', 'any']] },
  utf8toUnicode: { identityUnless: '\x80', rules: [['\x80', `%u${HEX_LOWER}`]] },
  compressWhitespace: { identityUnless: '\t \xa0', rules: [['\t\n\v\f\r\xa0', ' ']] },
  cmdLine: { rules: [['\t\n\r,;', ' ']] },
  replaceComments: { identityUnless: '/', rules: [['/', ' ']] },
  base64Decode: { rules: [['any', 'any']] },
  base64Encode: { rules: [['any', 'any']] },
  hexDecode: { rules: [['any', 'any']] },
  hexEncode: { rules: [['any', HEX_LOWER]] },
  length: { always: '0123456789' },
  md5: { always: 'any' },
  sha1: { always: 'any' },
};

/** Transformations with a known transfer (the others may produce any class). */
export const KNOWN_TRANSFERS: readonly string[] = Object.keys(SPECS);

function mask(chars: string | 'any'): [number, number] {
  if (chars === 'any') return [-1, -1];
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < chars.length; i++) {
    const k = CLASS_OF[chars.charCodeAt(i) & 0xff]!;
    if (k < 32) lo |= 1 << k;
    else hi |= 1 << (k - 32);
  }
  return [lo, hi];
}

/**
 * The transfer of one transformation, flattened: [always lo, always hi, rule count, then per rule
 * if-lo, if-hi, add-lo, add-hi].
 */
export function transferOf(name: string | undefined): number[] {
  const spec = name === undefined ? {} : (SPECS[name] ?? { always: 'any' });
  const [alo, ahi] = spec.always === undefined ? [0, 0] : mask(spec.always);
  const out = [alo, ahi, spec.rules?.length ?? 0];
  for (const [when, add] of spec.rules ?? []) out.push(...mask(when), ...mask(add));
  return out;
}

/** True when the transformation's output always has exactly its input's classes. */
export function keepsClasses(name: string | undefined): boolean {
  return name !== undefined && SPECS[name]?.sameClasses === true;
}

/** [lo, hi] of the classes whose absence makes the transformation the identity, or undefined. */
export function identityUnless(name: string | undefined): [number, number] | undefined {
  const chars = name === undefined ? undefined : SPECS[name]?.identityUnless;
  return chars === undefined ? undefined : mask(chars);
}

/** [trigger lo, trigger hi, base lo, base hi] of flattened transfers (see TransformChain). */
export function transferShortcut(steps: Int32Array): [number, number, number, number] {
  let tlo = 0;
  let thi = 0;
  for (let i = 0; i < steps.length; ) {
    const rules = steps[i + 2]!;
    i += 3;
    for (let r = 0; r < rules; r++, i += 4) {
      tlo |= steps[i]!;
      thi |= steps[i + 1]!;
    }
  }
  transfer(steps, 0, 0);
  return [tlo, thi, outLo, outHi];
}

let outLo = 0;
let outHi = 0;

/** Applies a chain's flattened transfers to class bits; the result is in `transferred()`. */
export function transfer(steps: Int32Array, lo: number, hi: number): void {
  let i = 0;
  while (i < steps.length && (lo & hi) !== -1) {
    let nlo = lo | steps[i]!;
    let nhi = hi | steps[i + 1]!;
    const rules = steps[i + 2]!;
    i += 3;
    for (let r = 0; r < rules; r++, i += 4) {
      if (((lo & steps[i]!) | (hi & steps[i + 1]!)) !== 0) {
        nlo |= steps[i + 2]!;
        nhi |= steps[i + 3]!;
      }
    }
    lo = nlo;
    hi = nhi;
  }
  outLo = lo;
  outHi = hi;
}

export function transferredLo(): number {
  return outLo;
}

export function transferredHi(): number {
  return outHi;
}
