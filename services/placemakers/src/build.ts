import { buildWebApp } from '@cairn/kit/web-build';
import { buildMapData } from './map/build-regions.ts';
import { EDITOR_UI } from './web-app.ts';

/**
 * Builds the editing UI with Vite (a few seconds) and the map's region boundaries (about 10 s, once),
 * each unless it is up to date; the build step's job.
 */
export async function buildEditorUi(options: { force?: boolean; quiet?: boolean } = {}) {
  await buildWebApp(EDITOR_UI, options);
  buildMapData({ force: options.force });
}
