import { launchBrowser } from '@cairn/kit/testing-browser';
import fc from 'fast-check';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../src/index.ts';
import { returnAddress } from '../src/web/return-address.ts';
import { type IdentityFixture, startIdentity } from './helpers.ts';

const PASSWORD = 'a long enough password';

/** Chromium's own URL parser decides where a return address leads, as it does after the 303. */
describe('return addresses after sign-in, in Chromium', () => {
  let f: IdentityFixture;
  let browser: Browser;

  beforeAll(async () => {
    f = await startIdentity({}, { clockStart: Date.now() });
    browser = await launchBrowser();
    await signUp(f.identity.deps, { email: 'rita@example.com', displayName: 'Rita', password: PASSWORD });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await f?.close();
  });

  it.each([
    ['tab then slash', '%2F%09%2Fevil.example%2Fpwned'],
    ['tab then backslash', '%2F%09%5Cevil.example'],
    ['dot segments', '%2F..%2F%2Fevil.example'],
  ])(
    '%s: signing in lands on the account page of this site',
    async (_name, returnTo) => {
      const page = await browser.newPage();
      await page.goto(`${f.baseUrl}/account/signin?return_to=${returnTo}`);
      await page.fill('#email', 'rita@example.com');
      await page.fill('#password', PASSWORD);
      await page.click('button[type=submit]');
      await expect.poll(() => new URL(page.url()).pathname).toBe('/account/apps');
      expect(new URL(page.url()).origin).toBe(f.baseUrl);
      await page.close();
    },
    30_000,
  );

  it('no address the function lets through resolves off-site in the browser', async () => {
    const candidates = fc.sample(
      fc
        .array(fc.constantFrom('/', '\\', '\t', '\n', ' ', ':', '@', '.', '..', '%2F', 'evil.example', 'a'), {
          maxLength: 10,
        })
        .map((parts) => `/${parts.join('')}`),
      { numRuns: 500, seed: 14 },
    );
    const kept = [...new Set(candidates.map(returnAddress))];
    const page = await browser.newPage();
    await page.goto(`${f.baseUrl}/account/signin`);
    // Runs in the page: Chromium's URL parser, against the sign-in page's own address.
    const origins = await page.evaluate(
      ([addresses, base]) => addresses.map((a) => new URL(a, base).origin),
      [kept, page.url()] as const,
    );
    expect(new Set(origins)).toEqual(new Set([f.baseUrl]));
    expect(kept.length).toBeGreaterThan(20);
    await page.close();
  }, 30_000);
});
