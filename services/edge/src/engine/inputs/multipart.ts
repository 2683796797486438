import type { Collect } from './types.ts';

const NAME = /\bname="([^"]*)"/i;
const FILENAME = /\bfilename="([^"]*)"/i;

/**
 * The fields of a multipart/form-data body: each part's field name and value; a file part gives its file
 * name only (file contents are the upload checks' concern, as in the CRS). One pass over the body.
 */
export function collectMultipart(text: string, boundary: string, collect: Collect): void {
  const delimiter = `--${boundary}`;
  let at = text.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (text.startsWith('--', start)) return;
    const next = text.indexOf(delimiter, start);
    const part = text.slice(start, next < 0 ? text.length : next);
    const split = part.indexOf('\r\n\r\n');
    if (split >= 0) {
      const head = part.slice(0, split);
      const name = NAME.exec(head)?.[1] ?? '';
      const filename = FILENAME.exec(head)?.[1];
      if (name !== '') collect('body', name, name);
      if (filename !== undefined) collect('body', name, filename);
      else collect('body', name, part.slice(split + 4).replace(/\r\n$/, ''));
    }
    at = next;
  }
}

/** The boundary parameter of a multipart Content-Type, or undefined. */
export function multipartBoundary(contentType: string): string | undefined {
  const m = /;\s*boundary=(?:"([^"]{1,200})"|([^;\s]{1,200}))/i.exec(contentType);
  return m?.[1] ?? m?.[2];
}
