import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

it('docs/places-categories.md is what scripts/places-categories-doc.ts makes of the taxonomy and the mapping', () => {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/places-categories-doc.ts', '--check'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
}, 60_000);
