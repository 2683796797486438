import { fileURLToPath } from 'node:url';
import { webApp } from '@cairn/kit/web-app';

/** The editing UI's Vite app; `npm run build` writes its dist/, the server only reads it. */
export const EDITOR_UI = webApp(fileURLToPath(new URL('../web', import.meta.url)));
export const DIST = EDITOR_UI.dist;
