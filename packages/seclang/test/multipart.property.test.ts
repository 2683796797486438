// The multipart parser reads a part's data as one slice of the body (no string per line): every field
// of a well-formed body comes back byte for byte, whatever its line breaks (CRLF, LF, lone CR, runs of
// empty lines, lines that start like the boundary), and the flags say which line endings were seen.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMultipart } from '../src/body-parsers/multipart.ts';

const BOUNDARY = 'xyzzy';
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** Field text built from the pieces that matter to a line parser. */
const fieldText = fc
  .array(fc.constantFrom('a', 'b c', '\r\n', '\n', '\r', '', `--${BOUNDARY}x`, `--${BOUNDARY}-`, '--', ' '), {
    maxLength: 30,
  })
  .map((pieces) => pieces.join(''));

const field = fc.record({ name: fc.stringMatching(/^[a-z]{1,8}$/), value: fieldText });

function isDelimiter(line: string): boolean {
  if (!line.startsWith(`--${BOUNDARY}`)) return false;
  const rest = line.slice(BOUNDARY.length + 2).replace(/\r$/, '');
  return rest.startsWith('--') || /^[ \t]*$/.test(rest);
}

function body(fields: Array<{ name: string; value: string }>, eol: string): string {
  return (
    fields
      .map(
        (f) =>
          `--${BOUNDARY}${eol}Content-Disposition: form-data; name="${f.name}"${eol}${eol}${f.value}${eol}`,
      )
      .join('') + `--${BOUNDARY}--${eol}`
  );
}

describe('parseMultipart', () => {
  it('gives back every field byte for byte, with CRLF or LF line breaks', () => {
    fc.assert(
      fc.property(
        fc.array(field, { minLength: 1, maxLength: 5 }),
        fc.constantFrom('\r\n', '\n'),
        (fields, eol) => {
          // not well-formed: a field ending in CR (it would take the delimiter's LF as its own CRLF), or
          // one with a line that is a delimiter
          fc.pre(fields.every((f) => !f.value.endsWith('\r') && !f.value.split('\n').some(isDelimiter)));
          const result = parseMultipart(body(fields, eol), CONTENT_TYPE, 1000);
          expect(result.error).toBeUndefined();
          expect(result.args?.entries).toEqual(fields.map((f) => ({ key: f.name, value: f.value })));
          expect(result.flags?.has('MULTIPART_LF_LINE')).toBe(eol === '\n');
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps a line that only starts like the boundary as data, and flags it', () => {
    const value = `one\r\n--${BOUNDARY}tail\r\ntwo`;
    const result = parseMultipart(body([{ name: 'q', value }], '\r\n'), CONTENT_TYPE, 1000);
    expect(result.args?.entries).toEqual([{ key: 'q', value }]);
    expect(result.flags?.has('MULTIPART_UNMATCHED_BOUNDARY')).toBe(true);
  });

  it('reads 131,000 empty lines as one field of that many line breaks', () => {
    const value = '\n'.repeat(131_000);
    const result = parseMultipart(body([{ name: 'q', value }], '\r\n'), CONTENT_TYPE, 1000);
    expect(result.args?.entries[0]?.value.length).toBe(131_000);
    expect(result.flags?.has('MULTIPART_LF_LINE')).toBe(false);
  });

  it('reads hostile shapes of the proxy body limit (128 KB): 14,500 boundary-like lines, NUL and 0xFF bytes, 21,000 part headers', () => {
    const lookalikes = `--${BOUNDARY}x\n`.repeat(14_500);
    const binary = '\u0000\u00ff\n'.repeat(43_000);
    const many = parseMultipart(
      `--${BOUNDARY}\r\n${'X: y\r\n'.repeat(21_000)}Content-Disposition: form-data; name="q"\r\n\r\nv\r\n--${BOUNDARY}--\r\n`,
      CONTENT_TYPE,
      1000,
    );
    expect(many.args?.entries).toEqual([{ key: 'q', value: 'v' }]);
    expect(many.partHeaders?.entries).toHaveLength(21_001);
    for (const value of [lookalikes, binary]) {
      const result = parseMultipart(body([{ name: 'q', value }], '\r\n'), CONTENT_TYPE, 1000);
      expect(result.args?.entries).toEqual([{ key: 'q', value }]);
    }
  });

  it('says a body without its closing delimiter is incomplete, and reads no field of it', () => {
    const result = parseMultipart(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="q"\r\n\r\nopen`,
      CONTENT_TYPE,
      1000,
    );
    expect(result.error).toBe('Multipart: final boundary missing');
    expect(result.args?.entries).toEqual([]);
  });
});
