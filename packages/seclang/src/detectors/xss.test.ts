import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import vectors from '../../testdata/detect-xss.json' with { type: 'json' };
import { type HtmlContext, scanHtml } from './html-scanner.ts';
import { detectXSS } from './xss.ts';
import { decodeReferences, hasDangerousScheme, isEventHandler } from './xss-rules.ts';

interface Vector {
  group: string;
  input: string;
  match: boolean;
}

const VECTORS = vectors as Vector[];

describe('detectXSS vectors (testdata/detect-xss.json)', () => {
  it.each(VECTORS.filter((v) => v.match).map((v) => [v.group, v.input]))('flags %s: %s', (_group, input) => {
    expect(detectXSS(input)).toBe(true);
  });

  it.each(VECTORS.filter((v) => !v.match).map((v) => [v.group, v.input]))(
    'passes %s: %s',
    (_group, input) => {
      expect(detectXSS(input)).toBe(false);
    },
  );
});

describe('scanHtml contexts', () => {
  const events = (input: string, context: HtmlContext): string[] => {
    const seen: string[] = [];
    scanHtml(input, context, {
      tag(name) {
        seen.push(`<${name}`);
        return false;
      },
      attribute(name, value, hasValue) {
        seen.push(hasValue ? `${name}=${value}` : name);
        return false;
      },
      declaration(kind, head) {
        seen.push(`${kind}${head}`); // head: up to 16 characters
        return false;
      },
    });
    return seen;
  };

  it('reads text, tags and attributes', () => {
    expect(events('hi <a href="x" title=\'y\' b>t</a><!--c--><?p?>', 'text')).toEqual([
      '<a',
      'href=x',
      'title=y',
      'b',
      '!--c--><?p?>',
      '?p?>',
    ]);
  });

  it('finishes the attribute value it was spliced into', () => {
    expect(events('x" onclick="y', '"')).toEqual(['onclick=y']);
    expect(events("x' a=b", "'")).toEqual(['a=b']);
    expect(events('x a=b', 'unquoted')).toEqual(['a=b']);
    expect(events('x>text<b c=d>', 'unquoted')).toEqual(['<b', 'c=d']);
    expect(events('a=b c', 'tag')).toEqual(['a=b', 'c']);
  });

  it('treats a quote with no closing match as the rest of the value', () => {
    expect(events('<a href="x onclick=y>', 'text')).toEqual(['<a', 'href=x onclick=y>']);
  });
});

describe('xss rules', () => {
  it('decodes character references browsers accept', () => {
    expect(decodeReferences('&#106;&#x61;&#X76;a&Tab;script&colon;')).toBe('java\tscript:');
    expect(decodeReferences('&#1114112;&unknown;')).toBe('&unknown;');
  });

  it('sees schemes through spaces, controls and references', () => {
    expect(hasDangerousScheme(' \u0001java\nscript:x')).toBe(true);
    expect(hasDangerousScheme('&#x6A;avascript:x')).toBe(true);
    expect(hasDangerousScheme('https://example.com/javascript:')).toBe(false);
  });

  it('knows event handlers, not words that start with "on"', () => {
    expect(isEventHandler('onerror')).toBe(true);
    expect(isEventHandler('onwebkitanimationend')).toBe(true);
    expect(isEventHandler('ononline')).toBe(true);
    expect(isEventHandler('online')).toBe(false);
    expect(isEventHandler('onion')).toBe(false);
    expect(isEventHandler('onboarding')).toBe(false);
  });
});

describe('detectXSS robustness', () => {
  it('never throws', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200, unit: 'binary' }), (input) => {
        expect(typeof detectXSS(input)).toBe('boolean');
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on markup-shaped noise', () => {
    const piece = fc.constantFrom(
      '<',
      '>',
      '/',
      '=',
      '"',
      "'",
      '`',
      ' ',
      '\t',
      '!',
      '?',
      '--',
      '<!--',
      '-->',
      '&#',
      ';',
      'x',
      'a',
      'script',
      'img',
      'on',
      'onerror',
      'href',
      'style',
      'javascript:',
      'xmlns',
      'constructor',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        expect(() => detectXSS(pieces.join(''))).not.toThrow();
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['<a ', 'open tags'],
    ['<!--', 'open comments'],
    ['<a x=', 'attributes without values'],
    ['<a style="', 'open style values'],
    ['a=" ', 'quotes and equals'],
    ['&#', 'references'],
    ['<', 'angle brackets'],
    ['<a b c d e f', 'a tag with many attributes'],
  ])('stays linear on 256 KiB of %s (%s)', (unit) => {
    // A quadratic scan of 256 KiB takes minutes; the bound leaves room for a loaded CI machine.
    const input = unit.repeat(Math.ceil(262_144 / unit.length));
    const started = performance.now();
    detectXSS(input);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
