// Tests of the legacy detector's own parts, kept while xss-legacy.property.test.ts compares with it.
import { describe, expect, it } from 'vitest';
import { type HtmlContext, scanHtml } from './html-scanner.ts';
import { decodeReferences, hasDangerousScheme, isEventHandler } from './xss-rules.ts';

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
