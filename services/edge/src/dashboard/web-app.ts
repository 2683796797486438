import { fileURLToPath } from 'node:url';
import { webApp } from '@cairn/kit/web-app';

/** The dashboard's Vite app; `npm run build` writes its dist/, the server only reads it. */
export const DASHBOARD_UI = webApp(fileURLToPath(new URL('../../web', import.meta.url)));
