import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { WebApp } from './web-app.ts';

export { type WebApp, webApp } from './web-app.ts';

// The build step only (npm run build, the tests' global setup): a running server never imports this.

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Whether the built app is missing or older than its sources. */
export function needsBuild(app: WebApp): boolean {
  const index = join(app.dist, 'index.html');
  return !existsSync(index) || statSync(index).mtimeMs < newestSource(app.root);
}

/** Builds the app with Vite (a few seconds), unless the build is up to date. */
export async function buildWebApp(
  app: WebApp,
  options: { force?: boolean; quiet?: boolean } = {},
): Promise<void> {
  if (!options.force && !needsBuild(app)) return;
  const { build } = await import('vite');
  rmSync(app.dist, { recursive: true, force: true });
  await build({
    root: app.root,
    configFile: join(app.root, 'vite.config.ts'),
    logLevel: options.quiet ? 'error' : 'warn',
  });
}
