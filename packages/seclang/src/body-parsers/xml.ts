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
  const scan = new XmlScan(body, depthLimit, nodeLimit);
  let i = 0;
  while (i < body.length && scan.error === undefined) {
    const lt = body.indexOf('<', i);
    scan.content(i, lt < 0 ? body.length : lt);
    if (lt < 0 || scan.error !== undefined) break;
    i = scan.markup(lt);
  }
  if (scan.error === undefined && (scan.stack.length > 0 || !scan.rootSeen))
    scan.error = 'document is incomplete';
  if (scan.error !== undefined) return { error: `XML parsing error: ${scan.error}` };
  return { xml: { root: scan.text.join(''), attributes: scan.attributes } };
}

/** One document's scan: each step takes the markup at an index and answers where the next one starts. */
class XmlScan {
  readonly text: string[] = [];
  readonly attributes: string[] = [];
  readonly stack: string[] = [];
  rootSeen = false;
  /** Why the document is malformed; the scan stops at the first reason. */
  error: string | undefined;
  private nodes = 0;

  constructor(
    private readonly body: string,
    private readonly depthLimit: number,
    private readonly nodeLimit: number,
  ) {}

  /** Character data between markup: part of the text inside the root, only spaces outside it. */
  content(from: number, to: number) {
    const chunk = this.body.slice(from, to);
    if (this.stack.length > 0) this.text.push(decodeEntities(chunk));
    else if (chunk.trim().length > 0) this.error = 'text outside the root element';
  }

  /** The markup starting at `lt` (a "<"); answers the index after it. */
  markup(lt: number): number {
    const body = this.body;
    if (body.startsWith('<!--', lt)) return this.skipPast('-->', lt + 4, 'unterminated comment');
    if (body.startsWith('<![CDATA[', lt)) return this.cdata(lt);
    if (body.startsWith('<?', lt)) return this.skipPast('?>', lt + 2, 'unterminated processing instruction');
    if (body.startsWith('<!', lt)) return this.declaration(lt);
    if (body.charCodeAt(lt + 1) === SLASH) return this.endTag(lt);
    return this.startTag(lt);
  }

  private skipPast(end: string, from: number, why: string): number {
    const at = this.body.indexOf(end, from);
    if (at < 0) return this.fail(why);
    return at + end.length;
  }

  private cdata(lt: number): number {
    const end = this.body.indexOf(']]>', lt + 9);
    if (end < 0 || this.stack.length === 0) return this.fail('bad CDATA section');
    this.text.push(this.body.slice(lt + 9, end));
    return end + 3;
  }

  /** A DOCTYPE (or other declaration): skipped, never loaded; only before the root element. */
  private declaration(lt: number): number {
    const end = this.body.indexOf('>', lt + 2);
    if (end < 0 || this.rootSeen) return this.fail('bad declaration');
    return end + 1;
  }

  private endTag(lt: number): number {
    const end = this.body.indexOf('>', lt);
    const name = this.body.slice(lt + 2, end < 0 ? this.body.length : end).trim();
    if (end < 0 || this.stack.pop() !== name) return this.fail(`mismatched end tag </${name}>`);
    return end + 1;
  }

  private startTag(lt: number): number {
    const end = this.body.indexOf('>', lt);
    if (end < 0) return this.fail('unterminated tag');
    const inner = this.body.slice(lt + 1, end);
    const m = /^([^\s/>]+)/.exec(inner);
    if (!m) return this.fail('bad tag');
    if (this.stack.length === 0 && this.rootSeen) return this.fail('more than one root element');
    this.rootSeen = true;
    if (++this.nodes > this.nodeLimit) return this.fail(`more than ${this.nodeLimit} elements`);
    const name = m[1]!;
    for (const a of inner.slice(name.length).matchAll(ATTR))
      this.attributes.push(decodeEntities(a[3] ?? a[4] ?? ''));
    if (!inner.endsWith('/')) {
      this.stack.push(name);
      if (this.stack.length > this.depthLimit) return this.fail(`deeper than ${this.depthLimit} levels`);
    }
    return end + 1;
  }

  private fail(why: string): number {
    this.error = why;
    return this.body.length;
  }
}

const SLASH = 47;

export const xml: BodyParser = {
  name: 'XML',
  parse: (body, _contentType, config) => parseXml(body, config.xmlDepthLimit, config.xmlNodeLimit),
};
