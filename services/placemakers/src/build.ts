import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WEB_ROOT = fileURLToPath(new URL('../web', import.meta.url));
export const DIST = join(WEB_ROOT, 'dist');

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
export function needsBuild(): boolean {
  const index = join(DIST, 'index.html');
  return !existsSync(index) || statSync(index).mtimeMs < newestSource(WEB_ROOT);
}

/** Builds the editing UI with Vite (a few seconds), unless the build is up to date. */
export async function buildEditorUi(options: { force?: boolean; quiet?: boolean } = {}): Promise<void> {
  if (!options.force && !needsBuild()) return;
  const { build } = await import('vite');
  rmSync(DIST, { recursive: true, force: true });
  await build({
    root: WEB_ROOT,
    configFile: join(WEB_ROOT, 'vite.config.ts'),
    logLevel: options.quiet ? 'error' : 'warn',
  });
}
