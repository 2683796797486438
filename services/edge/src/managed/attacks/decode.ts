/**
 * Percent-decoding that never throws: `%XX` becomes its byte, `+` a space when asked, a stray `%` stays,
 * and the bytes are read as UTF-8 (an invalid sequence becomes U+FFFD). Linear in the input.
 */
export function percentDecode(text: string, plusIsSpace: boolean): string {
  if (!text.includes('%') && !(plusIsSpace && text.includes('+'))) return text;
  const bytes = Buffer.allocUnsafe(Buffer.byteLength(text));
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x25 && i + 2 < text.length && isHex(text.charCodeAt(i + 1)) && isHex(text.charCodeAt(i + 2))) {
      bytes[n++] = Number.parseInt(text.slice(i + 1, i + 3), 16);
      i += 2;
    } else if (c === 0x2b && plusIsSpace) {
      bytes[n++] = 0x20;
    } else if (c < 0x80) {
      bytes[n++] = c;
    } else {
      const cp = text.codePointAt(i) as number;
      n += bytes.write(String.fromCodePoint(cp), n);
      if (cp > 0xffff) i++;
    }
  }
  return bytes.toString('utf8', 0, n);
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** `a=1&b=2` (or `;`-free cookie-style lists with another separator) as decoded name/value pairs. */
export function splitPairs(text: string, separator: string, plusIsSpace: boolean): [string, string][] {
  const out: [string, string][] = [];
  for (const part of text.split(separator)) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    out.push([percentDecode(name.trim(), plusIsSpace), percentDecode(value.trim(), plusIsSpace)]);
  }
  return out;
}
