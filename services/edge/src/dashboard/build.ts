import { fileURLToPath } from 'node:url';
import { buildWebApp, webApp } from '@cairn/kit/web-build';

export const DASHBOARD_UI = webApp(fileURLToPath(new URL('../../web', import.meta.url)));

/** Builds the dashboard with Vite (a few seconds), unless the build is up to date. */
export const buildDashboardUi = (options: { force?: boolean; quiet?: boolean } = {}) =>
  buildWebApp(DASHBOARD_UI, options);
