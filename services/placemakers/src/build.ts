import { fileURLToPath } from 'node:url';
import { buildWebApp, webApp } from '@cairn/kit/web-build';

export const EDITOR_UI = webApp(fileURLToPath(new URL('../web', import.meta.url)));
export const DIST = EDITOR_UI.dist;

/** Builds the editing UI with Vite (a few seconds), unless the build is up to date. */
export const buildEditorUi = (options: { force?: boolean; quiet?: boolean } = {}) =>
  buildWebApp(EDITOR_UI, options);
