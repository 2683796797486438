import { fileURLToPath } from 'node:url';
import { migrationsFromDir } from '@cairn/kit';

export const placesMigrations = migrationsFromDir(
  'places',
  fileURLToPath(new URL('../migrations', import.meta.url)),
);
