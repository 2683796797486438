// A forgiving HTML scanner after the HTML5 tokenizer's states, for the XSS detector. It reads
// the input as if spliced into a page at a given place — text between tags, or inside an
// attribute value (unquoted, '…', "…", `…`) — and reports each start tag, attribute and
// declaration to a visitor that may stop the scan. Every loop advances, so a scan is linear.

/**
 * Where the input lands in the page: text, among a tag's attributes, or in an attribute value
 * (unquoted, or opened with this quote).
 */
export type HtmlContext = 'text' | 'tag' | 'unquoted' | "'" | '"' | '`';

export interface HtmlVisitor {
  /** A start tag's lower-case name; true stops the scan. */
  tag(name: string): boolean;
  /** An attribute of the current tag (lower-case name, value cut at 1 KiB); true stops the scan. */
  attribute(name: string, value: string, hasValue: boolean): boolean;
  /** `<!…` or `<?…` markup; `head` is up to 16 characters after `<!` or `<?`; true stops. */
  declaration(kind: '!' | '?', head: string): boolean;
}

const DECLARATION_HEAD = 16;
// Longer attribute names are reported as "" (no dangerous name is this long); values are cut,
// since rules only look at their start.
const MAX_NAME = 48;
const MAX_VALUE = 1024;

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 12 || c === 13;
}

function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/** End of a run of name characters (HTML5: anything but space, "/", ">" and, for attributes, "="). */
function nameEnd(s: string, from: number, stopAtEquals: boolean): number {
  let i = from;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (isSpace(c) || c === 47 || c === 62 || (stopAtEquals && c === 61)) break;
    i++;
  }
  return i;
}

function skipSpaces(s: string, from: number): number {
  let i = from;
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i;
}

/** End of an attribute value starting at `from`: [valueStart, valueEnd, resume]. */
function readValue(s: string, from: number): [number, number, number] {
  const q = s.charCodeAt(from);
  if (q === 34 || q === 39 || q === 96) {
    const close = s.indexOf(String.fromCharCode(q), from + 1);
    return close === -1 ? [from + 1, s.length, s.length] : [from + 1, close, close + 1];
  }
  let i = from;
  while (i < s.length && !isSpace(s.charCodeAt(i)) && s.charCodeAt(i) !== 62) i++;
  return [from, i, i];
}

/**
 * Scans the attributes of a tag from `from`; returns [stopped, resume] where resume is just past
 * the tag's ">" or the end of input.
 */
function scanAttributes(s: string, from: number, visitor: HtmlVisitor): [boolean, number] {
  let i = from;
  const n = s.length;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (isSpace(c) || c === 47) {
      i++;
      continue;
    }
    if (c === 62) return [false, i + 1];
    const end = nameEnd(s, i + 1, true); // a name may start with "="
    const name = end - i > MAX_NAME ? '' : s.slice(i, end).toLowerCase();
    i = skipSpaces(s, end);
    if (s.charCodeAt(i) === 61) {
      const [start, stop, resume] = readValue(s, skipSpaces(s, i + 1));
      const value = s.slice(start, Math.min(stop, start + MAX_VALUE));
      if (visitor.attribute(name, value, true)) return [true, resume];
      i = resume;
    } else if (visitor.attribute(name, '', false)) {
      return [true, i];
    }
  }
  return [false, n];
}

/** Handles the markup after a "<" at `lt`; returns [stopped, resume]. */
function scanMarkup(s: string, lt: number, visitor: HtmlVisitor): [boolean, number] {
  const i = lt + 1;
  const c = s.charCodeAt(i);
  if (isLetter(c)) {
    const end = nameEnd(s, i, false);
    if (visitor.tag(s.slice(i, end).toLowerCase())) return [true, end];
    return scanAttributes(s, end, visitor);
  }
  if (c === 47 && isLetter(s.charCodeAt(i + 1))) {
    return scanAttributes(s, nameEnd(s, i + 1, false), visitor); // end tags parse attributes too
  }
  if (c === 33 || c === 63) {
    const head = s.slice(i + 1, i + 1 + DECLARATION_HEAD);
    if (visitor.declaration(c === 33 ? '!' : '?', head)) return [true, i];
    const comment = c === 33 && head.startsWith('--');
    const close = comment ? s.indexOf('-->', i + 3) : s.indexOf('>', i + 1);
    return [false, close === -1 ? s.length : close + (comment ? 3 : 1)];
  }
  return [false, i];
}

/** Scans `s` read in `context`; true when the visitor stopped the scan. */
export function scanHtml(s: string, context: HtmlContext, visitor: HtmlVisitor): boolean {
  let i = 0;
  if (context === 'tag') {
    const [stopped, next] = scanAttributes(s, 0, visitor);
    if (stopped) return true;
    i = next;
  } else if (context !== 'text') {
    // Finish the attribute value the input was spliced into, then continue inside the tag.
    let resume: number;
    if (context === 'unquoted') {
      resume = 0;
      while (resume < s.length && !isSpace(s.charCodeAt(resume)) && s.charCodeAt(resume) !== 62) resume++;
    } else {
      const close = s.indexOf(context);
      if (close === -1) return false;
      resume = close + 1;
    }
    if (s.charCodeAt(resume) === 62) {
      i = resume + 1;
    } else {
      const [stopped, next] = scanAttributes(s, resume, visitor);
      if (stopped) return true;
      i = next;
    }
  }
  while (i < s.length) {
    const lt = s.indexOf('<', i);
    if (lt === -1) return false;
    const [stopped, next] = scanMarkup(s, lt, visitor);
    if (stopped) return true;
    i = next;
  }
  return false;
}
