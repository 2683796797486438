import { percentDecode } from './decode.ts';

/**
 * The readings of a value a detection tries: as decoded by the parser, and decoded once more when it still
 * holds percent-escapes (double encoding reaches an application that decodes twice), NUL bytes removed.
 */
export function readings(value: string): string[] {
  const plain = value.includes('\0') ? value.replaceAll('\0', '') : value;
  if (!/%[0-9a-f]{2}/i.test(plain)) return [plain];
  return [plain, percentDecode(plain, false)];
}

/** The first reading `match` accepts, with what it found. */
export function firstMatch(
  value: string,
  match: (reading: string) => string | undefined,
): string | undefined {
  for (const reading of readings(value)) {
    const found = match(reading);
    if (found !== undefined) return found;
  }
  return undefined;
}
