// Bytes values are "binary strings": one JS character per byte (0..255), so `len` counts bytes,
// `lower` touches only ASCII, and a request's raw bytes (latin1) compare exactly.

const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** Text (any Unicode) to its UTF-8 bytes as a binary string. */
export function utf8ToBytes(text: string): string {
  if (ASCII_ONLY.test(text)) return text;
  return Buffer.from(text, 'utf8').toString('latin1');
}

/** Binary string to a Buffer. */
export function bytesToBuffer(bytes: string): Buffer {
  return Buffer.from(bytes, 'latin1');
}

/** Binary string to text, or undefined when it is not valid UTF-8. */
export function bytesToUtf8(bytes: string): string | undefined {
  if (ASCII_ONLY.test(bytes)) return bytes;
  const text = Buffer.from(bytes, 'latin1').toString('utf8');
  // A lossless decode re-encodes to the same bytes; U+FFFD marks invalid input.
  return utf8ToBytes(text) === bytes ? text : undefined;
}

export function isBinaryString(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 255) return false;
  return true;
}

const UPPER = /[A-Z]/;
const LOWER = /[a-z]/;
const HIGH = /[\x80-\uffff]/;
const UPPER_RUN = /[A-Z]+/g;
const LOWER_RUN = /[a-z]+/g;

/** Lowercases ASCII letters only; other bytes are unaffected (Rules `lower`). */
export function asciiLower(s: string): string {
  if (!UPPER.test(s)) return s;
  // toLowerCase would also fold Latin-1 letters (bytes 0xC0–0xDE), so use it only on ASCII.
  return HIGH.test(s) ? s.replace(UPPER_RUN, (m) => m.toLowerCase()) : s.toLowerCase();
}

/** Uppercases ASCII letters only (Rules `upper`). */
export function asciiUpper(s: string): string {
  if (!LOWER.test(s)) return s;
  return HIGH.test(s) ? s.replace(LOWER_RUN, (m) => m.toUpperCase()) : s.toUpperCase();
}
