import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_PAGE, returnAddress } from './return-address.ts';

/** Characters that change how a browser reads an address, mixed into arbitrary text. */
const tricky = fc.constantFrom(
  '/',
  '\\',
  '\t',
  '\n',
  '\r',
  ' ',
  '\0',
  '\x1f',
  '\x7f',
  ':',
  '@',
  '?',
  '#',
  '.',
  '..',
  '%2F',
  '%5C',
  '%09',
  'http:',
  'javascript:',
  'evil.example',
  '\u00a0',
  '\u3000',
  '\uFF0F',
  '\u2028',
);
const hostile = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.array(fc.oneof(tricky, fc.string({ maxLength: 3 })), { maxLength: 12 }).map((parts) => parts.join('')),
  fc
    .array(fc.oneof(tricky, fc.string({ maxLength: 3 })), { maxLength: 12 })
    .map((parts) => `/${parts.join('')}`),
);

const BASES = ['http://127.0.0.1:8080/account/signin', 'https://places.example.com/x/y?z#w'];

describe('the return address after sign-in', () => {
  it('is always a path that stays on the site it is resolved against, or the account page', () => {
    fc.assert(
      fc.property(hostile, (value) => {
        const address = returnAddress(value);
        if (address === ACCOUNT_PAGE) return;
        expect(address.startsWith('/') && !address.startsWith('//')).toBe(true);
        expect(address).not.toMatch(/[\0-\x20\x7f\\]/);
        for (const base of BASES) expect(new URL(address, base).origin).toBe(new URL(base).origin);
        expect(returnAddress(address)).toBe(address);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps same-site paths as given, the authorization request above all', () => {
    const authorize =
      '/oauth2/authenticate?client_id=abc&response_type=code&redirect_uri=http%3A%2F%2F127.0.0.1%3A5555%2Fcb&state=s';
    expect(returnAddress(authorize)).toBe(authorize);
    expect(returnAddress('/console?tab=apps#keys')).toBe('/console?tab=apps#keys');
  });

  it.each([
    '/\t/evil.example/pwned', // the issue: a browser drops the tab and reads //evil.example
    '/\t\\evil.example',
    '/\\evil.example',
    '//evil.example',
    '/\n/evil.example',
    '/..//evil.example', // normalises to //evil.example
    'https://evil.example',
    'javascript:alert(1)',
    'account/apps',
    ' /account/apps',
    '',
    undefined,
  ])('refuses %j', (value) => {
    expect(returnAddress(value)).toBe(ACCOUNT_PAGE);
  });
});
