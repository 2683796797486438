import { describe, expect, it } from 'vitest';
import { compileWildcard, parseWildcard, wildcardCaptures } from './wildcard.ts';

function matcher(pattern: string, strict = false) {
  const parsed = parseWildcard(pattern, Number.POSITIVE_INFINITY);
  if (typeof parsed === 'string') throw new Error(parsed);
  return compileWildcard(parsed, strict);
}

describe('wildcard', () => {
  it('matches the whole value, * = zero or more bytes', () => {
    const m = matcher('*.example.com/*');
    expect(m('a.example.com/')).toBe(true);
    expect(m('.example.com/x/y')).toBe(true);
    expect(m('example.com/')).toBe(false);
    expect(m('a.example.com')).toBe(false);
  });

  it('ignores ASCII case unless strict', () => {
    expect(matcher('ABC*')('abcd')).toBe(true);
    expect(matcher('ABC*', true)('abcd')).toBe(false);
    expect(matcher('\xc9', false)('\xe9')).toBe(false);
  });

  it('handles escapes and refuses bad patterns', () => {
    expect(parseWildcard('a\\*b\\\\c', Number.POSITIVE_INFINITY)).toEqual({ parts: ['a*b\\c'] });
    expect(parseWildcard('a**', Number.POSITIVE_INFINITY)).toBe('wildcard contains a double star');
    expect(parseWildcard('a\\', Number.POSITIVE_INFINITY)).toBe(
      'invalid wildcard: expected * or \\ after \\',
    );
    expect(parseWildcard('*a*', 1)).toBe('wildcard has 2 star metacharacters, but the limit is 1');
  });

  it('captures shortest first, the last star takes the rest', () => {
    expect(
      wildcardCaptures(
        ['https://', '.example.com/', '/', ''],
        'https://apps.example.com/calendar/admin?expand=true',
      ),
    ).toEqual(['apps', 'calendar', 'admin?expand=true']);
    expect(wildcardCaptures(['/', ''], '/calendar')).toEqual(['calendar']);
    expect(wildcardCaptures(['/applications/', ''], 'https://example.com/applications/app1')).toBeUndefined();
  });
});
