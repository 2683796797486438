const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Bytes as text, or why they are not UTF-8 ("is not valid UTF-8: byte 0xFF at offset 3"). Never guesses. */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { problem: string } {
  try {
    return { text: strictDecoder.decode(bytes) };
  } catch {
    const at = firstInvalidUtf8Byte(bytes);
    const byte = (bytes[at] ?? 0).toString(16).toUpperCase().padStart(2, '0');
    return { problem: `is not valid UTF-8: byte 0x${byte} at offset ${at}` };
  }
}

/**
 * Offset of the first byte that does not start or continue a well-formed sequence (Unicode Table 3-7:
 * no overlong forms, no surrogates, nothing above U+10FFFF), or -1 when all of `bytes` is UTF-8.
 */
export function firstInvalidUtf8Byte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes, i);
    if (length === 0) return i;
    i += length;
  }
  return -1;
}

/** Length of the well-formed sequence at `i`, or 0. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return 1;
  // Range of the second byte, and the sequence's length, by lead byte.
  let low = 0x80;
  let high = 0xbf;
  let length: number;
  if (b >= 0xc2 && b <= 0xdf) length = 2;
  else if (b >= 0xe0 && b <= 0xef) {
    length = 3;
    if (b === 0xe0) low = 0xa0;
    if (b === 0xed) high = 0x9f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    length = 4;
    if (b === 0xf0) low = 0x90;
    if (b === 0xf4) high = 0x8f;
  } else return 0;
  const second = bytes[i + 1];
  if (second === undefined || second < low || second > high) return 0;
  for (let k = 2; k < length; k++) {
    const next = bytes[i + k];
    if (next === undefined || next < 0x80 || next > 0xbf) return 0;
  }
  return length;
}
