// What the XSS detector calls dangerous, as libinjection's XSS check (ModSecurity's @detectXSS)
// does: tag names, attribute names and how their values are judged, URL schemes, and comment
// openings. Names are compared with NULs left out and ASCII case folded, since old browsers
// ignore NULs; input is bytes (one char each), and a char above 0xFF matches no ASCII letter.

import { startsWithAsciiCaseless } from './html-tokenizer.ts';

/** Start tags that run, load or re-base code (any name starting with "svg" or "xsl" too). */
export const DANGEROUS_TAGS: ReadonlySet<string> = new Set([
  'applet',
  'base',
  'comment', // IE reads its content as script-capable markup (html5sec.org #38)
  'embed',
  'frame',
  'frameset',
  'handler', // Opera's SVG script element
  'iframe',
  'import',
  'isindex',
  'link',
  'listener',
  'meta',
  'noscript',
  'object',
  'script',
  'style',
  'vmlframe',
  'xml',
  'xss',
]);

/**
 * How an attribute's value is judged: `always` (any value), `url` (a script or data URL),
 * `style` (any value: CSS can run script), `indirect` (the value names an attribute, as SVG's
 * attributeName does), `none` (harmless).
 */
export type AttributeKind = 'none' | 'always' | 'url' | 'style' | 'indirect';

/** Attributes by name; every on* name of 5 characters or more and every xmlns*, xlink* name is `always`. */
export const ATTRIBUTE_KINDS: ReadonlyMap<string, AttributeKind> = new Map<string, AttributeKind>([
  ['action', 'url'],
  ['attributename', 'indirect'],
  ['background', 'url'],
  ['by', 'url'],
  ['dataformatas', 'always'],
  ['datasrc', 'always'],
  ['dynsrc', 'url'],
  ['filter', 'style'],
  ['folder', 'url'],
  ['formaction', 'url'],
  ['from', 'url'],
  ['handler', 'url'],
  ['href', 'url'],
  ['lowsrc', 'url'],
  ['poster', 'url'],
  ['src', 'url'],
  ['style', 'style'],
  ['to', 'url'],
  ['values', 'url'],
  ['xlink:href', 'url'],
]);

/** URL openings that run script or show the page's source (checked after decoding references). */
const DANGEROUS_URL_STARTS: readonly string[] = ['DATA', 'VIEW-SOURCE', 'JAVA', 'VBSCRIPT'];
const LONGEST_URL_START = 11;

/** Longest name in the lists above; longer names are never looked up. */
const LONGEST_NAME = 13;

/**
 * s[start, end) with NULs left out and A–Z folded to lower case; '' when that is longer than
 * `max` (no listed name is).
 */
function foldName(s: string, start: number, end: number, max: number): string {
  if (end - start <= max && isPlainName(s, start, end)) return s.slice(start, end);
  let out = '';
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c === 0) continue;
    if (out.length === max) return '';
    out += String.fromCharCode(c >= 65 && c <= 90 ? c + 32 : c);
  }
  return out;
}

/** No NULs and no upper-case ASCII: the name is already folded. */
function isPlainName(s: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c === 0 || (c >= 65 && c <= 90)) return false;
  }
  return true;
}

export function isDangerousTag(s: string, start: number, end: number): boolean {
  if (end - start < 3) return false;
  if (DANGEROUS_TAGS.has(foldName(s, start, end, LONGEST_NAME))) return true;
  return startsWithAsciiCaseless(s, start, 'svg') || startsWithAsciiCaseless(s, start, 'xsl');
}

export function attributeKind(s: string, start: number, end: number): AttributeKind {
  if (end - start < 2) return 'none';
  if (end - start >= 5) {
    if (startsWithAsciiCaseless(s, start, 'on')) return 'always'; // "on=", "one" stay harmless
    const head = foldName(s, start, start + 5, 5);
    if (head === 'xmlns' || head === 'xlink') return 'always'; // namespaces create any element
  }
  return ATTRIBUTE_KINDS.get(foldName(s, start, end, LONGEST_NAME)) ?? 'none';
}

const LARGEST_REFERENCE = 0x1000ff; // larger numbers read as a plain "&"

/** The numeric character reference (`&#106;`, `&#x6A`) or char at `i`: [code, length]. */
function referenceAt(s: string, i: number, end: number): [number, number] {
  const c = s.charCodeAt(i);
  if (c !== 38 || end - i < 2) return [Math.min(c, 0xff), 1];
  if (s.charCodeAt(i + 1) !== 35) return [38, 1];
  const x = s.charCodeAt(i + 2) | 0x20;
  const radix = x === 120 ? 16 : 10; // "&#x"
  const first = radix === 16 ? i + 3 : i + 2;
  let value = first < end ? digitValue(s.charCodeAt(first), radix) : -1;
  if (value === -1) return [38, 1];
  let j = first + 1;
  for (; j < end; j++) {
    const c = s.charCodeAt(j);
    if (c === 59) return [value, j + 1 - i]; // ";"
    const digit = digitValue(c, radix);
    if (digit === -1) return [value, j - i];
    value = value * radix + digit;
    if (value > LARGEST_REFERENCE) return [38, 1];
  }
  return [value, j - i];
}

function digitValue(c: number, radix: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (radix === 10) return -1;
  const lower = c | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/**
 * The first letters of a URL as a browser reads its scheme: references decoded, leading
 * controls, spaces and non-ASCII bytes skipped, NULs and newlines skipped anywhere, upper case.
 * A reference to a code above 0xFF counts as its low byte, as libinjection compares bytes.
 */
function urlStart(s: string, start: number, end: number): string {
  let i = start;
  while (i < end) {
    const c = s.charCodeAt(i);
    if (c > 32 && c < 127) break;
    i++;
  }
  let out = '';
  while (i < end && out.length < LONGEST_URL_START) {
    const [code, length] = referenceAt(s, i, end);
    i += length;
    if (out.length === 0 && code <= 32) continue;
    if (code === 0 || code === 10) continue;
    out += String.fromCharCode((code >= 97 && code <= 122 ? code - 32 : code) & 0xff);
  }
  return out;
}

export function isDangerousUrl(s: string, start: number, end: number): boolean {
  const head = urlStart(s, start, end);
  return DANGEROUS_URL_STARTS.some((opening) => head.startsWith(opening));
}

/**
 * A comment that IE or XML parsers act on: a back-quote (ends a tag in IE), a conditional
 * comment `[if`, an `xml` or `import` processing instruction, an `ENTITY` declaration.
 */
export function isDangerousComment(s: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (s.charCodeAt(i) === 96) return true; // within the comment only
  if (end - start > 3) {
    if (s.charCodeAt(start) === 91 && startsWithAsciiCaseless(s, start + 1, 'if')) return true;
    if (startsWithAsciiCaseless(s, start, 'xml')) return true;
  }
  if (end - start > 5) {
    const head = foldName(s, start, start + 6, 6);
    if (head === 'import' || head === 'entity') return true;
  }
  return false;
}
