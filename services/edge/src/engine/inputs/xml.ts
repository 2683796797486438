import type { Collect } from './types.ts';

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** The five XML entities and numeric character references, decoded; others stay as written. */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return ENTITIES[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const ATTRIBUTE = /([\w:.-]{1,100})\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/**
 * An XML body's text as inputs, in one pass: element text (CDATA included) under the element's name,
 * attribute values under the attribute's name, and declarations (`<!DOCTYPE …>`, `<!ENTITY …>`) whole,
 * where an external entity names the file or address it reads.
 */
export function collectXml(text: string, collect: Collect): void {
  let element = '';
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf('<', at);
    const chunk = text.slice(at, open < 0 ? text.length : open);
    if (chunk.trim() !== '') collect('body', element, decodeEntities(chunk));
    if (open < 0) return;
    if (text.startsWith('<![CDATA[', open)) {
      const end = text.indexOf(']]>', open);
      collect('body', element, text.slice(open + 9, end < 0 ? text.length : end));
      at = end < 0 ? text.length : end + 3;
      continue;
    }
    const close = text.indexOf('>', open);
    const tag = text.slice(open + 1, close < 0 ? text.length : close);
    at = close < 0 ? text.length : close + 1;
    if (tag.startsWith('!') || tag.startsWith('?')) {
      if (!tag.startsWith('!--')) collect('body', 'xml-declaration', tag);
      continue;
    }
    if (tag.startsWith('/')) continue;
    element = /^[\w:.-]{0,100}/.exec(tag)?.[0] ?? '';
    for (const m of tag.matchAll(ATTRIBUTE))
      collect('body', m[1] as string, decodeEntities(m[2] ?? m[3] ?? ''));
  }
}
