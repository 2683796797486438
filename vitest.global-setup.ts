// Builds the web apps once before the tests that serve them (vitest workers would otherwise race to build).
import { buildDashboardUi } from '@cairn/edge/build';
import { buildEditorUi } from '@cairn/placemakers/build';

export default async function setup() {
  await buildEditorUi({ quiet: true });
  await buildDashboardUi({ quiet: true });
}
