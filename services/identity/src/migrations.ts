import { fileURLToPath } from 'node:url';
import { migrationsFromDir } from '@cairn/kit';

export const identityMigrations = migrationsFromDir(
  'identity',
  fileURLToPath(new URL('../migrations', import.meta.url)),
);
