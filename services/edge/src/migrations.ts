import { fileURLToPath } from 'node:url';
import { migrationsFromDir } from '@cairn/kit';

export const edgeMigrations = migrationsFromDir(
  'edge',
  fileURLToPath(new URL('../migrations', import.meta.url)),
);
