// The verdict on one reading's fingerprint: it must be on the attack list, and then survive the
// checks libinjection adds against false positives on short fingerprints (1U, nc, sos, 1&1…).

import { isAttackFingerprint } from './sqli-keywords.ts';
import { type SqlToken, TOKEN } from './sqli-token.ts';

export interface Reading {
  /** The input as given. */
  input: string;
  fingerprint: string;
  tokens: SqlToken[];
  /** Tokens the tokenizer produced, comments included, before folding. */
  tokenCount: number;
}

export function isInjection(r: Reading): boolean {
  return r.fingerprint !== '' && isAttackFingerprint(r.fingerprint) && !looksBenign(r);
}

function looksBenign(r: Reading): boolean {
  const fp = r.fingerprint;
  // MS SQL's audit log hides statements that mention sp_password after a comment
  if (fp.length > 1 && fp.endsWith(TOKEN.comment) && r.input.includes('sp_password')) return false;
  if (fp.length === 2) return shortTwoIsBenign(r);
  if (fp.length === 3) return shortThreeIsBenign(r);
  return false;
}

function shortTwoIsBenign(r: Reading): boolean {
  const [first, second] = r.tokens as [SqlToken, SqlToken];
  // "1 union" alone is ordinary text; with folding or comments around it, it is not
  if (second.type === TOKEN.union) return r.tokenCount === 2;
  if (second.val.startsWith('#')) return true;
  if (first.type === TOKEN.bareword && second.type === TOKEN.comment && !second.val.startsWith('/'))
    return true;
  if (first.type === TOKEN.number && second.type === TOKEN.comment) {
    if (second.val.startsWith('/')) return false;
    if (r.tokenCount > 2) return false;
    // "1234--" or "1234 --", not "1234-abc--" (base64-looking values). libinjection reads the
    // character at the number token's length, whatever the number's position, as a signed C
    // char: a byte >= 0x80 counts as a space, and so does the end of the input.
    const at = first.val.length;
    const next = r.input.charCodeAt(at) || 0;
    if (next <= 32 || next >= 128) return false;
    const after = r.input[at + 1];
    if ((next === 47 && after === '*') || (next === 45 && after === '-')) return false;
    return true;
  }
  // plain text often has "-- …"; only a bare trailing "--" counts
  return second.val.length > 2 && second.val.startsWith('-');
}

function shortThreeIsBenign(r: Reading): boolean {
  const fp = r.fingerprint;
  const t = r.tokens;
  if (fp === 'sos' || fp === 's&s') {
    // …foo' + 'bar…: both ends open and the middle quotes match
    const open = t[0]!.strOpen === '' && t[2]!.strClose === '' && t[0]!.strClose === t[2]!.strOpen;
    return !open;
  }
  if (fp === 's&n' || fp === 'n&1' || fp === '1&1' || fp === '1&v' || fp === '1&s') {
    return r.tokenCount === 3; // "sexy and 17" is text, "sexy and 17<18" is not
  }
  if (t[1]!.type === TOKEN.keyword) {
    // only INTO OUTFILE / INTO DUMPFILE
    return t[1]!.val.length < 5 || t[1]!.val.slice(0, 4).toUpperCase() !== 'INTO';
  }
  return false;
}
