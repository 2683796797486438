// The SQL word table and the list of attack fingerprints, both data from libinjection v3.9.2
// (BSD-3-Clause, credited in NOTICE): keywords.json maps an upper-case word or phrase to its
// token type; fingerprints.txt lists the folded fingerprints that are SQL injection.

import { readFileSync } from 'node:fs';
import { TOKEN_VALUE_MAX, upperAscii } from './sqli-token.ts';

const dataDir = new URL('./libinjection-data/', import.meta.url);

const KEYWORDS: ReadonlyMap<string, string> = new Map(
  Object.entries(
    (
      JSON.parse(readFileSync(new URL('keywords.json', dataDir), 'utf8')) as {
        keywords: Record<string, string>;
      }
    ).keywords,
  ),
);

const FINGERPRINTS: ReadonlySet<string> = new Set(
  readFileSync(new URL('fingerprints.txt', dataDir), 'utf8')
    .split('\n')
    .map((line) => line.trim().toUpperCase())
    .filter((line) => line !== ''),
);

/** Token type of a word or phrase in any ASCII case, or '' when it is no SQL word. */
export function lookupWord(word: string): string {
  if (word.length === 0 || word.length > TOKEN_VALUE_MAX) return '';
  return KEYWORDS.get(upperAscii(word)) ?? '';
}

/** Whether a folded fingerprint (compared in upper case) is on the attack list. */
export function isAttackFingerprint(fingerprint: string): boolean {
  return FINGERPRINTS.has(fingerprint.toUpperCase());
}
