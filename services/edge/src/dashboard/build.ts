import { buildWebApp } from '@cairn/kit/web-build';
import { DASHBOARD_UI } from './web-app.ts';

/** Builds the dashboard with Vite (a few seconds), unless the build is up to date; the build step's job. */
export const buildDashboardUi = (options: { force?: boolean; quiet?: boolean } = {}) =>
  buildWebApp(DASHBOARD_UI, options);
