import { firstMatch } from './readings.ts';
import type { AttackMatcher } from './types.ts';

/** A `..` segment: `../`, `..\`, `...//`, Tomcat's `..;/`. */
const DOT_DOT = /(?:^|[\\/])\.{2,3}(?:;[^/\\]{0,32})?[\\/]/;

/** Encodings of `.` and `/` that a one-pass decoder misses: overlong UTF-8 and %u escapes. */
const ENCODED_DOTS = /%c0%a[ef]|%e0%80%a[ef]|%c1%[19]c|%u(?:002e|ff0e|2215|2216|002f|005c)|%25(?:2e|2f|5c)/i;

/** Path traversal: a parent-directory segment, however it is encoded. */
export const traversal: AttackMatcher = (value) => {
  const encoded = ENCODED_DOTS.exec(value);
  if (encoded) return encoded[0];
  return firstMatch(value, (reading) => DOT_DOT.exec(reading)?.[0]);
};

/** Files that a local file inclusion reads to prove itself or to steal secrets, Unix and Windows. */
const SYSTEM_FILES = new RegExp(
  [
    String.raw`(?:^|[\\/])etc[\\/]{1,4}(?:passwd|shadow|group|gshadow|hosts|services|issue|motd|crontab|sudoers|fstab|hostname|resolv\.conf|security[\\/]|ssh[\\/]|mysql[\\/]|apache2[\\/]|nginx[\\/])`,
    String.raw`(?:^|[\\/])proc[\\/]{1,4}(?:self|\d{1,7})[\\/]`,
    String.raw`(?:^|[\\/])(?:usr[\\/]{1,4}bin[\\/]{1,4}env|bin[\\/]{1,4}(?:ba)?sh|var[\\/]{1,4}log[\\/]|root[\\/]{1,4}\.)`,
    String.raw`(?:^|[\\/])\.(?:ssh[\\/]|bash_history|htpasswd|aws[\\/]credentials)`,
    String.raw`(?:^|[\\/:])(?:windows|winnt)[\\/]{1,4}(?:system32|system\.ini|win\.ini|repair[\\/])`,
    String.raw`(?:^|[\\/])(?:boot|win|system)\.ini\b`,
    String.raw`^[a-z]:[\\/]{1,4}(?:windows|winnt|inetpub|documents and settings)`,
    '^file:',
  ].join('|'),
  'i',
);

/** Local file inclusion: a well-known system file, with or without a traversal before it. */
export const localFileInclusion: AttackMatcher = (value) =>
  firstMatch(value, (reading) => SYSTEM_FILES.exec(reading.trimStart())?.[0]);
