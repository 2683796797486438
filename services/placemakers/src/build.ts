import { buildWebApp } from '@cairn/kit/web-build';
import { EDITOR_UI } from './web-app.ts';

/** Builds the editing UI with Vite (a few seconds), unless the build is up to date; the build step's job. */
export const buildEditorUi = (options: { force?: boolean; quiet?: boolean } = {}) =>
  buildWebApp(EDITOR_UI, options);
