// Byte helpers for binary strings (one UTF-16 unit per byte).

export function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

export function isHexCode(code: number): boolean {
  return hexValue(code) >= 0;
}

/** Two hex digits at `i` as a byte, or -1. */
export function hexByte(s: string, i: number): number {
  const hi = hexValue(s.charCodeAt(i));
  const lo = hexValue(s.charCodeAt(i + 1));
  return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
}

/**
 * ModSecurity's reading of a 16-bit `%uHHHH` / `\uHHHH` escape without a unicode map: the low byte,
 * and full-width ASCII (U+FF01–U+FF5E) folded back to ASCII.
 */
export function wideToByte(s: string, i: number): number {
  const low = hexByte(s, i + 2);
  const fullWidth = (s.charCodeAt(i) | 0x20) === 0x66 && (s.charCodeAt(i + 1) | 0x20) === 0x66;
  return fullWidth && low > 0 && low < 0x5f ? low + 0x20 : low;
}

/** isspace() in the C locale. */
export function isSpaceCode(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** Builds a string from char codes without blowing the stack on large inputs. */
export function fromCodes(codes: number[]): string {
  let out = '';
  for (let i = 0; i < codes.length; i += 8192) {
    out += String.fromCharCode(...codes.slice(i, i + 8192));
  }
  return out;
}
