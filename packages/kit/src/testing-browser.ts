import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium (installed by `npm test` / .ci/run through scripts/system-deps.mjs). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where browser tests leave their screenshots (test-output/screenshots at the repository root). */
export const SCREENSHOTS = join(import.meta.dirname, '..', '..', '..', 'test-output', 'screenshots');

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`chromium is not installed at ${CHROMIUM}; install it with: apt-get install -y chromium`);
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // This machine has no network but loopback; background services would only fail and slow the start.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export function screenshotPath(name: string): string {
  return join(SCREENSHOTS, `${name}.png`);
}
