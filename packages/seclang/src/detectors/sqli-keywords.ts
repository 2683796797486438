// The SQL word table and the list of attack fingerprints, both data from libinjection 3.9.2-46-gbfba51f
// (BSD-3-Clause, credited in NOTICE): keywords.json maps an upper-case word or phrase to its
// token type; fingerprints.txt lists the folded fingerprints that are SQL injection.

import { readFileSync } from 'node:fs';
import { isAscii, TOKEN_VALUE_MAX } from './sqli-token.ts';

// One literal URL per file: the package build (apps/cli/scripts/build.ts) copies files named this way.

const KEYWORDS: ReadonlyMap<string, string> = new Map(
  Object.entries(
    (
      JSON.parse(readFileSync(new URL('./libinjection-data/keywords.json', import.meta.url), 'utf8')) as {
        keywords: Record<string, string>;
      }
    ).keywords,
  ),
);

const FINGERPRINTS: ReadonlySet<string> = new Set(
  readFileSync(new URL('./libinjection-data/fingerprints.txt', import.meta.url), 'utf8')
    .split('\n')
    .map((line) => line.trim().toUpperCase())
    .filter((line) => line !== ''),
);

/** One step of a 16-bit hash of a word with a-z folded to A-Z (the same for any ASCII case). */
export function foldHashStep(hash: number, c: number): number {
  return (hash * 31 + (c >= 97 && c <= 122 ? c - 32 : c)) & 0xffff;
}

function foldedHash(word: string): number {
  let hash = 0;
  for (let i = 0; i < word.length; i++) hash = foldHashStep(hash, word.charCodeAt(i));
  return hash;
}

// Which 16-bit hashes some keyword has: most ordinary words miss, and skip the exact lookup.
const KEYWORD_HASHES = new Uint8Array(0x10000);
for (const word of KEYWORDS.keys()) KEYWORD_HASHES[foldedHash(word)] = 1;

/** False when `hash` (foldedHash of a word) proves the word is in no table entry. */
export function mayBeKeyword(hash: number): boolean {
  return KEYWORD_HASHES[hash] === 1;
}

/** Every word sequence that begins a phrase of the table ("UNION" for "UNION ALL", "FOR UPDATE" for "FOR UPDATE OF"). */
const PHRASE_HEADS: ReadonlySet<string> = new Set(
  [...KEYWORDS.keys()].flatMap((phrase) => {
    const words = phrase.split(' ');
    return words.slice(1).map((_, i) => words.slice(0, i + 1).join(' '));
  }),
);

const PHRASE_HEAD_HASHES = new Uint8Array(0x10000);
for (const head of PHRASE_HEADS) PHRASE_HEAD_HASHES[foldedHash(head)] = 1;

/** Whether a word or phrase may be followed by another word to form a phrase of the table. */
export function beginsPhrase(word: string): boolean {
  if (word.length > TOKEN_VALUE_MAX || PHRASE_HEAD_HASHES[foldedHash(word)] === 0) return false;
  return PHRASE_HEADS.has(word.toUpperCase()) && isAscii(word);
}

/** Token type of a word or phrase in any ASCII case, or '' when it is no SQL word. */
export function lookupWord(word: string): string {
  if (word.length === 0 || word.length > TOKEN_VALUE_MAX) return '';
  // toUpperCase agrees with the table's a-z folding on ASCII; a hit on anything else is checked
  const type = KEYWORDS.get(word.toUpperCase());
  return type !== undefined && isAscii(word) ? type : '';
}

/** Whether a folded fingerprint (compared in upper case) is on the attack list. */
export function isAttackFingerprint(fingerprint: string): boolean {
  return FINGERPRINTS.has(fingerprint.toUpperCase());
}
