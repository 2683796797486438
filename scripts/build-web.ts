// The build step: builds the web apps (the place editor, the edge dashboard) with Vite when their build is
// missing or older than their sources. `npm install` runs it (the root "prepare" script), so `npm start`
// only reads the result and works on a read-only checkout.
//   node --import tsx scripts/build-web.ts [--force]
import { buildDashboardUi } from '@cairn/edge/build';
import { buildEditorUi } from '@cairn/placemakers/build';

const force = process.argv.includes('--force');
const started = Date.now();
await buildEditorUi({ force, quiet: true });
await buildDashboardUi({ force, quiet: true });
process.stdout.write(`web apps built or up to date (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
