import { normalizeName } from '../reference/normalize.ts';

/** Letters that Unicode does not decompose into a base letter and a mark, written as people type them. */
const FOLDS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

/**
 * The form a place name is looked up by: normalizeName's (case, accents, punctuation), the letters above
 * folded, and runs of single letters joined, so "Washington, D.C.", "Washington DC" and "washington d c"
 * share the key "washington dc", and "U.S.A." is "usa".
 */
export function placeKey(text: string): string {
  const words = normalizeName(text.replace(/[ßæœøłđðþı]/gi, (c) => FOLDS[c.toLowerCase()] ?? c)).split(' ');
  let key = '';
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const joined = word.length === 1 && i > 0 && words[i - 1]!.length === 1;
    key += i === 0 ? word : joined ? word : ` ${word}`;
  }
  return key;
}
