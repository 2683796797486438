// XML: a small non-validating parser that yields what CRS inspects: the document's text content
// (`XML:/*`) and every attribute value (`XML://@*`). No DTD or external entity is ever loaded;
// depth and node count are limited; a malformed document sets REQBODY_ERROR.
import type { BodyParser, BodyResult } from './types.ts';

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  if (text.indexOf('&') < 0) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (all, ref: string) => {
    if (ref.startsWith('#x')) return String.fromCharCode(Number.parseInt(ref.slice(2), 16) & 0xff);
    if (ref.startsWith('#')) return String.fromCharCode(Number.parseInt(ref.slice(1), 10) & 0xff);
    return ENTITIES[ref] ?? all;
  });
}

const ATTR = /([^\s=/>]+)\s*=\s*("([^"]*)"|'([^']*)')/g;

export function parseXml(body: string, depthLimit: number, nodeLimit: number): BodyResult {
  const text: string[] = [];
  const attributes: string[] = [];
  const stack: string[] = [];
  let nodes = 0;
  let rootSeen = false;
  let i = 0;
  const fail = (why: string): BodyResult => ({ error: `XML parsing error: ${why}` });
  while (i < body.length) {
    const lt = body.indexOf('<', i);
    const chunk = body.slice(i, lt < 0 ? body.length : lt);
    if (stack.length > 0) text.push(decodeEntities(chunk));
    else if (chunk.trim().length > 0) return fail('text outside the root element');
    if (lt < 0) break;
    if (body.startsWith('<!--', lt)) {
      const end = body.indexOf('-->', lt + 4);
      if (end < 0) return fail('unterminated comment');
      i = end + 3;
    } else if (body.startsWith('<![CDATA[', lt)) {
      const end = body.indexOf(']]>', lt + 9);
      if (end < 0 || stack.length === 0) return fail('bad CDATA section');
      text.push(body.slice(lt + 9, end));
      i = end + 3;
    } else if (body.startsWith('<?', lt)) {
      const end = body.indexOf('?>', lt + 2);
      if (end < 0) return fail('unterminated processing instruction');
      i = end + 2;
    } else if (body.startsWith('<!', lt)) {
      const end = body.indexOf('>', lt + 2);
      if (end < 0 || rootSeen) return fail('bad declaration');
      i = end + 1;
    } else if (body[lt + 1] === '/') {
      const end = body.indexOf('>', lt);
      const name = body.slice(lt + 2, end < 0 ? body.length : end).trim();
      if (end < 0 || stack.pop() !== name) return fail(`mismatched end tag </${name}>`);
      i = end + 1;
    } else {
      const end = body.indexOf('>', lt);
      if (end < 0) return fail('unterminated tag');
      const inner = body.slice(lt + 1, end);
      const selfClosing = inner.endsWith('/');
      const m = /^([^\s/>]+)/.exec(inner);
      if (!m) return fail('bad tag');
      if (stack.length === 0 && rootSeen) return fail('more than one root element');
      rootSeen = true;
      if (++nodes > nodeLimit) return fail(`more than ${nodeLimit} elements`);
      for (const a of inner.slice(m[1]!.length).matchAll(ATTR))
        attributes.push(decodeEntities(a[3] ?? a[4] ?? ''));
      if (!selfClosing) {
        stack.push(m[1]!);
        if (stack.length > depthLimit) return fail(`deeper than ${depthLimit} levels`);
      }
      i = end + 1;
    }
  }
  if (stack.length > 0 || !rootSeen) return fail('document is incomplete');
  return { xml: { root: text.join(''), attributes } };
}

export const xml: BodyParser = {
  name: 'XML',
  parse: (body, _contentType, config) => parseXml(body, config.xmlDepthLimit, config.xmlNodeLimit),
};
