import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** A service's Vite single-page app: its folder (with vite.config.ts) and the build output under it. */
export interface WebApp {
  root: string;
  dist: string;
}

export function webApp(root: string): WebApp {
  return { root, dist: join(root, 'dist') };
}

/** The built app is missing: the install or build step did not run (start never builds). */
export class WebAppNotBuiltError extends Error {
  override name = 'WebAppNotBuiltError';
}

/**
 * Start-up check: the app was built by the install step (`npm install` runs `npm run build`). Serving
 * never builds — the checkout may be read-only, and vite is a development dependency.
 */
export function assertBuilt(app: WebApp, what: string): void {
  if (existsSync(join(app.dist, 'index.html'))) return;
  throw new WebAppNotBuiltError(
    `${what} is not built (${join(app.dist, 'index.html')} is missing): run "npm run build" in the Cairn checkout (npm install runs it), then start again`,
  );
}
