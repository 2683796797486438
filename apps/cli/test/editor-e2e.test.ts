import { registerApp } from '@cairn/identity';
import { freePort } from '@cairn/kit/testing';
import { launchBrowser, screenshotPath } from '@cairn/kit/testing-browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EditorStack, startEditorStack } from './editor-stack.ts';
import { startThirdPartyApp } from './third-party-app.ts';

/**
 * Issue 5 end to end, in Debian's chromium: three people connect a third-party app (sign-up, consent with
 * mode=placemaker, code exchange, session token), open the embedded editor, and one suggests an edit that
 * the two others approve; the edit is applied, the places API shows it, and the author's accuracy rises.
 */
describe('the embedded place editor, end to end', () => {
  let stack: EditorStack;
  let browser: Browser;
  let base: string;
  let serviceKey: string;
  let app: Awaited<ReturnType<typeof startThirdPartyApp>>;
  const closers: (() => Promise<unknown> | unknown)[] = [];

  beforeAll(async () => {
    stack = await startEditorStack();
    base = stack.baseUrl;
    serviceKey = stack.serviceKey;
    closers.push(() => stack.close());
    const port = await freePort();
    const registered = await registerApp(stack.identity.deps, {
      organizationId: stack.orgId,
      name: 'Trail Guide',
      redirectUris: [`http://127.0.0.1:${port}/callback`],
    });
    app = await startThirdPartyApp({
      cairnUrl: base,
      clientId: registered.app.clientId,
      clientSecret: registered.clientSecret,
      port,
    });
    closers.unshift(() => app.server.close());
    browser = await launchBrowser();
    closers.unshift(() => browser.close());
  }, 120_000);

  afterAll(async () => {
    for (const close of closers) await close();
  });

  /** A new person: signs up through the app's "edit places" link and lands in the editor. */
  async function personInEditor(name: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
    const page = await (await browser.newContext({ viewport })).newPage();
    await page.goto(`${app.url}/edit-places`);
    await page.click('text=Create one');
    await page.fill('#display_name', name);
    await page.fill('#email', `${name.toLowerCase().replace(/\W/g, '')}@example.com`);
    await page.fill('#password', 'places are fun 2025');
    await page.click('button[type=submit]');
    await page.waitForSelector('text=Suggest edits to places on your behalf');
    await page.click('button[value=allow]');
    await page.waitForSelector('[data-testid=who]');
    expect(new URL(page.url()).pathname).toBe('/placemakers/');
    expect(page.url()).not.toContain('session_token');
    expect(await page.textContent('[data-testid=who]')).toBe(`${name} · via Trail Guide`);
    return page;
  }

  async function accuracyOf(page: Page): Promise<number> {
    await page.click('nav >> text=My edits');
    const text = (await page.waitForSelector('[data-testid=accuracy]')).textContent();
    return Number((await text)!.replace('%', ''));
  }

  it('suggest, vote, apply; the API shows the change and the author’s accuracy rises', async () => {
    const author = await personInEditor('Alex Author');
    await author.waitForSelector('ul.results li a');
    await author.screenshot({ path: screenshotPath('placemakers-map') });

    const before = await accuracyOf(author);
    await author.click('nav >> text=Map');
    await author.waitForSelector('ul.results li a');
    // Keyboard only: search, then Tab through the map to the first result and open it with Enter.
    const first = author.locator('ul.results li a').first();
    const placeName = (await first.locator('strong').textContent())!;
    await author.focus('#q');
    await author.keyboard.type(placeName);
    await author.keyboard.press('Enter');
    await author.waitForSelector(`ul.results li a:has-text("${placeName}")`);
    for (let i = 0; i < 80; i++) {
      await author.keyboard.press('Tab');
      if ((await author.locator('ul.results a:focus').count()) > 0) break;
    }
    expect(await author.locator(':focus').textContent()).toContain(placeName);
    await author.keyboard.press('Enter');
    await author.waitForSelector(`h1:text("${placeName}")`);
    const placeId = (await author.textContent('dd code'))!;
    await author.screenshot({ path: screenshotPath('placemakers-place') });

    // A bad value first: the message appears beside its field.
    await author.click('button:text("Suggest an edit")');
    await author.fill('#field-website', 'not a url');
    await author.click('button:text("Suggest edit")');
    await author.waitForSelector('#field-website-error');
    expect(await author.getAttribute('#field-website', 'aria-invalid')).toBe('true');
    await author.fill('#field-website', 'https://trail.example.com/new');
    await author.fill('#field-tel', '+33 1 40 20 50 50');
    await author.screenshot({ path: screenshotPath('placemakers-edit-form') });
    await author.click('button:text("Suggest edit")');
    await author.waitForSelector('text=waits for other people to vote');

    for (const name of ['Bea Voter', 'Cy Voter']) {
      const voter = await personInEditor(name, { width: 390, height: 844 }); // a phone-sized screen
      await voter.click('nav >> text=Review queue');
      await voter.waitForSelector(`section[aria-label="${placeName}"]`);
      if (name === 'Bea Voter') await voter.screenshot({ path: screenshotPath('placemakers-review-queue') });
      await voter.locator(`section[aria-label="${placeName}"] button:text("Approve")`).first().click();
      await voter.waitForSelector('text=Thank you');
      await voter.context().close();
    }

    const api = await fetch(`${base}/places/${placeId}`, {
      headers: { authorization: `Bearer ${serviceKey}`, 'x-places-api-version': '2025-06-17' },
    });
    const changed = (await api.json()) as { tel?: string; website?: string };
    expect(changed.tel?.replace(/\D/g, '')).toMatch(/140205050$/);
    expect(changed.website).toBe('https://trail.example.com/new');

    const after = await accuracyOf(author);
    expect(after).toBeGreaterThan(before);
    await author.click('nav >> text=Map');
    await author.context().close();
  }, 180_000);
});
