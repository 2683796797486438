import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collectMultipart } from '../engine/inputs/multipart.ts';
import { formDataContentType, multipartView } from './multipart-view.ts';

const TYPE = 'multipart/form-data; boundary=B0und';
const LIMIT = 1024;

type Part = { name: string; value: string; filename?: string };
const part = ({ name, value, filename }: Part) =>
  `--B0und\r\nContent-Disposition: form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}\r\n\r\n${value}\r\n`;
const body = (parts: Part[]) => Buffer.from(`${parts.map(part).join('')}--B0und--\r\n`, 'latin1');
const view = (b: Buffer | string, type = TYPE, limit = LIMIT) =>
  multipartView(Buffer.isBuffer(b) ? b : Buffer.from(b, 'latin1'), type, limit);

/** What the edge's own multipart reader collects: [name, value] of every field and file name. */
function fields(b: Buffer): [string, string][] {
  const out: [string, string][] = [];
  collectMultipart(b.toString('latin1'), 'B0und', (_, name, value) => out.push([name, value]));
  return out;
}

describe('multipartView', () => {
  it('leaves out file contents and keeps fields, names and file names', () => {
    const b = body([
      { name: 'title', value: 'Holiday' },
      { name: 'photo', value: 'P'.repeat(5000), filename: 'beach.jpg' },
      { name: 'user', value: "admin'--" },
    ]);
    const v = view(b);
    expect(v?.cut).toBe(false);
    expect(v?.head.toString('latin1')).toBe(
      body([
        { name: 'title', value: 'Holiday' },
        { name: 'photo', value: '', filename: 'beach.jpg' },
        { name: 'user', value: "admin'--" },
      ]).toString('latin1'),
    );
  });

  it('counts fields and part headers toward the limit: many tiny parts, endless headers', () => {
    const tiny = body(Array.from({ length: 100 }, (_, i) => ({ name: `f${i}`, value: 'v' })));
    expect(view(tiny)?.cut).toBe(true);
    expect(view(tiny)?.head.length).toBe(LIMIT);
    const endless = `--B0und\r\n${'X-Pad: a\r\n'.repeat(500)}Content-Disposition: form-data; name="f"; filename="a"\r\n\r\n${'d'.repeat(10)}\r\n--B0und--\r\n`;
    expect(view(endless)?.cut).toBe(true);
  });

  it('ends a file content at any line starting with the boundary, even a malformed one', () => {
    const file = (content: string) =>
      `--B0und\r\nContent-Disposition: form-data; name="f"; filename="a"\r\n\r\n${'d'.repeat(2000)}\r\n${content}\r\n--B0und--\r\n`;
    const hidden = 'Content-Disposition: form-data; name="user"\r\n\r\nadmin\'--';
    for (const line of ['--B0und', '--B0und \t', '--B0undX', '--"B0und"', '--B0und--']) {
      const text = view(file(`${line}\r\n${hidden}`))?.head.toString('latin1') ?? '';
      expect(text, line).toContain(`${line}\r\n${hidden}`);
      expect(text, line).not.toContain('ddd');
    }
  });

  it('elides no part with doubtful headers: two dispositions, folding, odd quoting, no filename', () => {
    for (const headers of [
      'Content-Disposition: form-data; name="f"; filename="a"\r\nContent-Disposition: form-data; name="f"',
      'Content-Disposition: form-data; name="f";\r\n filename="a"',
      'Content-Disposition: form-data; name="f" filename="a"',
      'Content-Disposition: form-data; name="f"; xfilename="a"',
      'Content-Disposition : form-data; name="f"; filename="a"',
      'Content-Disposition: form-data; name="f\\x"; filename="a"',
    ]) {
      const text = `--B0und\r\n${headers}\r\n\r\nsecret\r\n--B0und--\r\n`;
      expect(view(text)?.head.toString('latin1'), headers).toBe(text);
    }
  });

  it('gives no view for a boundary parsers could read differently', () => {
    const b = body([{ name: 'f', value: 'x', filename: 'a' }]);
    for (const type of [
      'multipart/form-data; boundary=B0und; boundary=other',
      'multipart/form-data; charset="a;boundary=B0und"; boundary=other',
      'multipart/form-data; boundary = B0und',
      'multipart/form-data; boundary=B0u/nd',
      'multipart/form-data',
    ])
      expect(view(b, type), type).toBeUndefined();
    expect(
      view(
        Buffer.from(b.toString().replaceAll('B0und', 'WebKitFormBoundaryB0und')),
        'multipart/form-data; boundary=WebKitFormBoundaryB0und',
      )?.cut,
    ).toBe(false);
    expect(view(b, 'multipart/form-data; boundary="B0und"')?.head.toString('latin1')).not.toContain(
      '\r\n\r\nx',
    );
  });

  it('reads the Content-Type only when it is the one multipart/form-data line', () => {
    expect(formDataContentType(['Content-Type', TYPE])).toBe(TYPE);
    expect(formDataContentType(['content-type', 'MULTIPART/FORM-DATA;boundary=a'])).toBeDefined();
    expect(formDataContentType(['Content-Type', TYPE, 'Content-Type', TYPE])).toBeUndefined();
    expect(formDataContentType(['Content-Type', 'multipart/mixed; boundary=a'])).toBeUndefined();
    expect(formDataContentType(['Content-Type', 'multipart/form-datax; boundary=a'])).toBeUndefined();
  });

  it('property: the fields read from the view are the fields read from the body', () => {
    const name = fc.stringMatching(/^[a-z]{1,6}$/);
    const value = fc.stringMatching(/^[a-zA-Z0-9 '=\-\r\n]{0,40}$/).filter((v) => !v.includes('--B0und'));
    const parts = fc.array(
      fc.record(
        { name, value, filename: fc.option(name, { nil: undefined }) },
        { requiredKeys: ['name', 'value'] },
      ),
      { maxLength: 8 },
    );
    fc.assert(
      fc.property(parts, (ps) => {
        const b = body(ps);
        const v = view(b, TYPE, 1 << 20);
        expect(v?.cut).toBe(false);
        expect(fields(v?.head ?? Buffer.alloc(0))).toEqual(fields(b));
      }),
    );
  });

  it('property: no line that starts with the boundary is ever left out, whatever the bytes', () => {
    const piece = fc.constantFrom(
      '--B0und',
      '--B0und--',
      '--"B0und"',
      '\r\n',
      '\n',
      '\r',
      'Content-Disposition: form-data; name="a"; filename="f"',
      'Content-Disposition: form-data; name="b"',
      'X: y',
      'data',
      '-',
      ' ',
    );
    const delimiters = (s: string) => s.match(/(?:^|[\r\n])--"?B0und/g)?.length ?? 0;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const text = pieces.join('');
        const v = view(text, TYPE, 1 << 20);
        expect(delimiters(v?.head.toString('latin1') ?? '')).toBe(delimiters(text));
      }),
      { numRuns: 2000 },
    );
  });
});
