// A set of bytes (0..255) as 8 × 32 bits, for the regex safety analysis.

export type CharSet = Uint32Array;

export function emptySet(): CharSet {
  return new Uint32Array(8);
}

export function fullSet(): CharSet {
  return new Uint32Array(8).fill(0xffffffff);
}

export function addRange(set: CharSet, from: number, to: number): CharSet {
  for (let c = from; c <= to && c < 256; c++) set[c >>> 5] = ((set[c >>> 5] ?? 0) | (1 << (c & 31))) >>> 0;
  return set;
}

export function hasChar(set: CharSet, c: number): boolean {
  return (((set[c >>> 5] ?? 0) >>> (c & 31)) & 1) === 1;
}

export function union(a: CharSet, b: CharSet): CharSet {
  const out = new Uint32Array(8);
  for (let i = 0; i < 8; i++) out[i] = ((a[i] ?? 0) | (b[i] ?? 0)) >>> 0;
  return out;
}

export function invert(a: CharSet): CharSet {
  const out = new Uint32Array(8);
  for (let i = 0; i < 8; i++) out[i] = ~(a[i] ?? 0) >>> 0;
  return out;
}

export function intersects(a: CharSet, b: CharSet): boolean {
  for (let i = 0; i < 8; i++) if (((a[i] ?? 0) & (b[i] ?? 0)) !== 0) return true;
  return false;
}

export function intersect(a: CharSet, b: CharSet): CharSet {
  const out = new Uint32Array(8);
  for (let i = 0; i < 8; i++) out[i] = ((a[i] ?? 0) & (b[i] ?? 0)) >>> 0;
  return out;
}

export function isEmpty(a: CharSet): boolean {
  for (let i = 0; i < 8; i++) if ((a[i] ?? 0) !== 0) return false;
  return true;
}

/** Adds the other ASCII case of every letter in the set (for the `i` flag). */
export function foldCase(a: CharSet): CharSet {
  const out = Uint32Array.from(a);
  for (let c = 65; c <= 90; c++) {
    if (hasChar(a, c) || hasChar(a, c + 32)) {
      addRange(out, c, c);
      addRange(out, c + 32, c + 32);
    }
  }
  return out;
}

export const DIGIT = addRange(emptySet(), 48, 57);
export const WORD = addRange(addRange(addRange(addRange(emptySet(), 48, 57), 65, 90), 97, 122), 95, 95);
export const SPACE = addRange(addRange(emptySet(), 9, 13), 32, 32);
