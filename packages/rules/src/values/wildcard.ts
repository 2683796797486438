// `wildcard` / `strict wildcard`: the whole value must match a pattern in which `*` stands for
// zero or more bytes, `\*` for a literal star and `\\` for a backslash. `**` is invalid.
// `wildcard` ignores ASCII case; `strict wildcard` does not. Matching is a linear scan: the
// first piece is a prefix, the last a suffix, the middle ones are found left to right.

import { reasons } from '../errors.ts';
import { asciiLower } from './bytes.ts';

export interface ParsedWildcard {
  /** Literal pieces around the stars: `a*b*c` → ['a', 'b', 'c']. */
  readonly parts: readonly string[];
}

/** Parses the pattern bytes; returns the reason when invalid. */
export function parseWildcard(pattern: string, starLimit: number): ParsedWildcard | string {
  const parts: string[] = [];
  let current = '';
  let lastWasStar = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next !== '*' && next !== '\\') return 'invalid wildcard: expected * or \\ after \\';
      current += next;
      i++;
      lastWasStar = false;
    } else if (c === '*') {
      if (lastWasStar) return reasons.doubleStar;
      parts.push(current);
      current = '';
      lastWasStar = true;
    } else {
      current += c;
      lastWasStar = false;
    }
  }
  parts.push(current);
  const stars = parts.length - 1;
  if (stars > starLimit) return reasons.tooManyStars(stars, starLimit);
  return { parts };
}

export type WildcardMatcher = (value: string) => boolean;

/** Captures the text each `*` matched (shortest first, as `wildcard_replace` does), or undefined. */
export function wildcardCaptures(parts: readonly string[], value: string): string[] | undefined {
  const last = parts.length - 1;
  const head = parts[0] ?? '';
  if (last === 0) return value === head ? [] : undefined;
  const tail = parts[last] ?? '';
  if (value.length < head.length + tail.length || !value.startsWith(head) || !value.endsWith(tail)) {
    return undefined;
  }
  const end = value.length - tail.length;
  const captures: string[] = [];
  let pos = head.length;
  for (let i = 1; i < last; i++) {
    const part = parts[i] ?? '';
    const at = value.indexOf(part, pos);
    if (at === -1 || at + part.length > end) return undefined;
    captures.push(value.slice(pos, at));
    pos = at + part.length;
  }
  captures.push(value.slice(pos, end));
  return captures;
}

export function compileWildcard(parsed: ParsedWildcard, caseSensitive: boolean): WildcardMatcher {
  const parts = caseSensitive ? parsed.parts : parsed.parts.map(asciiLower);
  const fold = caseSensitive ? (s: string) => s : asciiLower;
  const last = parts.length - 1;
  const head = parts[0] ?? '';
  const tail = parts[last] ?? '';
  if (last === 0) return (v) => fold(v) === head;
  const minLength = head.length + tail.length;
  if (last === 1) {
    return (v) => {
      if (v.length < minLength) return false;
      const s = fold(v);
      return s.startsWith(head) && s.endsWith(tail);
    };
  }
  return (v) => {
    if (v.length < minLength) return false;
    const s = fold(v);
    if (!s.startsWith(head) || !s.endsWith(tail)) return false;
    const end = s.length - tail.length;
    let pos = head.length;
    for (let i = 1; i < last; i++) {
      const part = parts[i] as string;
      const at = s.indexOf(part, pos);
      if (at === -1 || at + part.length > end) return false;
      pos = at + part.length;
    }
    return true;
  };
}
